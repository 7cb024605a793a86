// Host sets for the gsdeploy probe tests: hosts a test can stop and start
// again, reached through the same AdapterMaker seam gsdeploy uses. The
// tests in gsdeploy_probe_test.cc run against every kind listed by
// TestHostSetKinds(): local hosts, and real sshd hosts from the testbed
// (tests/support/sshd_testbed.h) reached through the registry.
#ifndef GSRT_TESTS_GSDEPLOY_TEST_HOSTS_H_
#define GSRT_TESTS_GSDEPLOY_TEST_HOSTS_H_

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "adapters/local/local_adapter.h"
#include "runtime/config/config.h"
#include "runtime/deploy/deploy_context.h"
#include "runtime/hosts/registry.h"
#include "tests/support/sshd_testbed.h"
#include "tests/support/temp_dir.h"

namespace gs {

class TestHostSet {
 public:
  virtual ~TestHostSet() = default;
  // Names at least two hosts, and a fresh history file.
  virtual const Config& config() const = 0;
  virtual AdapterMaker maker() = 0;
  // After Stop(host), connecting to it fails (as a stopped machine or
  // sshd would); Start(host) undoes that.
  virtual void Stop(const std::string& host) = 0;
  virtual void Start(const std::string& host) = 0;
};

struct TestHostSetKind {
  std::string name;  // test name suffix
  // Why this kind cannot run here (testbed missing), or "".
  std::function<std::string()> skip_reason = [] { return std::string(); };
  std::function<std::unique_ptr<TestHostSet>()> make;
};

// Test names print the kind, not its bytes.
inline void PrintTo(const TestHostSetKind& kind, std::ostream* os) {
  *os << kind.name;
}

// Local hosts "h1" and "h2", each with its own work dir. Stop() puts a
// regular file where the work dir was, so LocalAdapter::Connect() fails.
class LocalTestHostSet : public TestHostSet {
 public:
  LocalTestHostSet() {
    config_.runtime.work_dir = dir_ / "work";
    config_.runtime.history = dir_ / "history.db";
    for (const char* name : {"h1", "h2"}) {
      HostConfig host;
      host.name = name;
      host.adapters = {AdapterKind::kLocal};
      host.slots = 1;
      host.workdir = dir_ / name;
      host.shared_fs = true;
      config_.hosts.push_back(host);
    }
  }

  const Config& config() const override { return config_; }

  AdapterMaker maker() override {
    return [](const HostConfig& host, boost::asio::io_context& io,
              Clock& clock) -> StatusOr<std::unique_ptr<Adapter>> {
      LocalAdapterOptions options;
      options.slots = host.slots;
      options.work_dir = host.workdir;
      options.host_name = host.name;
      return std::unique_ptr<Adapter>(
          std::make_unique<LocalAdapter>(io, clock, options));
    };
  }

  void Stop(const std::string& host) override {
    const std::string dir = config_.FindHost(host)->workdir;
    std::filesystem::remove_all(dir);
    std::FILE* f = std::fopen(dir.c_str(), "w");
    if (f != nullptr) std::fclose(f);
  }

  void Start(const std::string& host) override {
    std::filesystem::remove(config_.FindHost(host)->workdir);
  }

 private:
  TempDir dir_;
  Config config_;
};

// Hosts "node1" and "node2" on a testbed of their own (two real sshds on
// 127.0.0.2 and .3), as `adapter: ssh` hosts that do not share files: the
// registry's ssh adapter installs gsrt-agent into WORKDIR/bin and starts
// it. Stop() kills that host's sshd and its sessions; Start() runs its
// sshd again on the same address, port and keys.
class SshTestHostSet : public TestHostSet {
 public:
  SshTestHostSet() : bed_(2) {
    if (std::string error = bed_.Start(); !error.empty()) {
      throw std::runtime_error("cannot start the sshd test hosts: " + error);
    }
    config_.runtime.work_dir = dir_ / "work";
    config_.runtime.history = dir_ / "history.db";
    config_.runtime.heartbeat = 1;
    for (int i = 1; i <= 2; ++i) {
      HostConfig host;
      host.name = "node" + std::to_string(i);
      host.adapters = {AdapterKind::kSsh};
      host.address = testing::SshdTestbed::Address(i);
      host.port = bed_.port();
      host.identity = bed_.identity();
      host.known_hosts = bed_.known_hosts();
      host.slots = 1;
      host.workdir = dir_ / host.name;
      host.shared_fs = false;
      config_.hosts.push_back(host);
    }
  }
  ~SshTestHostSet() override { bed_.Stop(); }

  const Config& config() const override { return config_; }

  AdapterMaker maker() override {
    return [this](const HostConfig& host, boost::asio::io_context& io,
                  Clock& clock) {
      AdapterContext context;
      context.io = &io;
      context.clock = &clock;
      context.config = &config_;
      return MakeAdapter(host, context);
    };
  }

  void Stop(const std::string& host) override {
    std::ifstream in(PidFile(host));
    pid_t listener = 0;
    in >> listener;
    if (listener <= 0) return;
    // Sessions first: once the listener is gone they would be orphans.
    std::vector<pid_t> pids = testing::Descendants(listener);
    pids.push_back(listener);
    for (pid_t p : pids) ::kill(p, SIGTERM);
    const auto limit =
        std::chrono::steady_clock::now() + std::chrono::seconds(10);
    for (pid_t p : pids) {
      while (Running(p)) {
        if (std::chrono::steady_clock::now() > limit) ::kill(p, SIGKILL);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    }
  }

  void Start(const std::string& host) override {
    const std::string hdir = HostDir(host);
    testing::Shell("/usr/sbin/sshd -f " + ShellQuote(hdir + "/sshd_config") +
                   " -E " + ShellQuote(hdir + "/sshd.log"));
    // sshd forks before it listens: wait (bounded) for the port.
    const HostConfig& h = *config_.FindHost(host);
    const auto limit =
        std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!Listening(h.address, h.port) &&
           std::chrono::steady_clock::now() < limit) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }

 private:
  std::string HostDir(const std::string& host) const {
    return bed_.dir() + "/host" + host.substr(std::string("node").size());
  }
  std::string PidFile(const std::string& host) const {
    return HostDir(host) + "/sshd.pid";
  }
  // Alive and not a zombie (nobody may reap a daemon's children here).
  static bool Running(pid_t pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(stat, line)) return false;
    const size_t close = line.rfind(')');
    return close != std::string::npos && close + 2 < line.size() &&
           line[close + 2] != 'Z';
  }
  static bool Listening(const std::string& address, int port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port));
    ::inet_pton(AF_INET, address.c_str(), &a.sin_addr);
    const bool ok =
        ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) == 0;
    ::close(fd);
    return ok;
  }

  TempDir dir_;
  testing::SshdTestbed bed_;
  Config config_;
};

inline std::vector<TestHostSetKind> TestHostSetKinds() {
  return {
      {.name = "local",
       .make = [] { return std::make_unique<LocalTestHostSet>(); }},
      // Never skipped: the testbed script installs sshd where it is
      // missing, and a testbed that cannot start fails the test.
      {.name = "ssh",
       .make = [] { return std::make_unique<SshTestHostSet>(); }},
  };
}

}  // namespace gs

#endif  // GSRT_TESTS_GSDEPLOY_TEST_HOSTS_H_
