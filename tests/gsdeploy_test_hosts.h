// Host sets for the gsdeploy probe tests: hosts a test can stop and start
// again, reached through the same AdapterMaker seam gsdeploy uses. The
// tests in gsdeploy_probe_test.cc run against every kind listed by
// TestHostSetKinds(); a new kind (the sshd testbed, once the ssh adapter
// is in the registry) is one more entry there.
#ifndef GSRT_TESTS_GSDEPLOY_TEST_HOSTS_H_
#define GSRT_TESTS_GSDEPLOY_TEST_HOSTS_H_

#include <filesystem>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "adapters/local/local_adapter.h"
#include "runtime/config.h"
#include "runtime/deploy_context.h"
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

inline std::vector<TestHostSetKind> TestHostSetKinds() {
  return {
      {.name = "local",
       .make = [] { return std::make_unique<LocalTestHostSet>(); }},
      // ssh: hosts on the sshd testbed (tests/testbed/sshd.sh); Stop()
      // stops that host's sshd. Added with the ssh adapter.
  };
}

}  // namespace gs

#endif  // GSRT_TESTS_GSDEPLOY_TEST_HOSTS_H_
