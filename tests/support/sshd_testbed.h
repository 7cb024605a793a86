// Real OpenSSH servers for the ssh tests (header-only, test code only):
// runs tests/testbed/sshd.sh on a free port (it picks one, GSRT_SSHD_PORT=
// auto) in a fresh temporary directory and stops it at the end. Every
// server is on 127.0.0.2, 127.0.0.3, ...
//
// A test file registers it once:
//   static auto* const kSshd = gs::testing::SshdEnvironment::Register(3);
// and reaches it with gs::testing::Sshd().
#ifndef GSRT_TESTS_SUPPORT_SSHD_TESTBED_H_
#define GSRT_TESTS_SUPPORT_SSHD_TESTBED_H_

#include <gtest/gtest.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "adapters/ssh/ssh_target.h"
#include "runtime/base/shell_quote.h"
#include "tests/support/shell_command.h"

namespace gs::testing {

// The pids of every process below `pid` (session sshds, shells, commands).
inline std::vector<pid_t> Descendants(pid_t pid) {
  std::vector<std::pair<pid_t, pid_t>> all;  // pid, ppid
  for (const auto& e : std::filesystem::directory_iterator("/proc")) {
    const std::string name = e.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(e.path() / "stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    const size_t close = line.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(line.substr(close + 2));
    char state;
    pid_t ppid;
    rest >> state >> ppid;
    all.emplace_back(std::stoi(name), ppid);
  }
  std::vector<pid_t> out;
  std::set<pid_t> parents = {pid};
  for (bool grew = true; grew;) {
    grew = false;
    for (auto [p, pp] : all) {
      if (parents.count(pp) && !parents.count(p)) {
        parents.insert(p);
        out.push_back(p);
        grew = true;
      }
    }
  }
  return out;
}

class SshdTestbed {
 public:
  explicit SshdTestbed(int hosts) : hosts_(hosts) {}

  // Starts the servers; "" on success, else the script's output.
  std::string Start() {
    const char* base = std::getenv("TMPDIR");
    std::string tmpl =
        std::string(base && *base ? base : "/tmp") + "/gsrt-sshd-XXXXXX";
    if (::mkdtemp(tmpl.data()) == nullptr) return "mkdtemp failed";
    dir_ = tmpl;
    auto [rc, out] = Shell(Env() + "bash " + ShellQuote(Script()) + " start " +
                           std::to_string(hosts_) + " " + ShellQuote(dir_));
    if (rc != 0)
      return "sshd.sh start failed (exit " + std::to_string(rc) + "):\n" + out;
    std::ifstream env(dir_ + "/hosts.env");
    for (std::string line; std::getline(env, line);) {
      if (line.rfind("GSRT_SSHD_PORT=", 0) == 0)
        port_ = std::stoi(line.substr(15));
    }
    if (port_ <= 0) return "sshd.sh did not say which port it chose:\n" + out;
    return "";
  }

  void Stop() {
    if (dir_.empty()) return;
    Shell(Env() + "bash " + ShellQuote(Script()) + " stop " + ShellQuote(dir_));
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
    dir_.clear();
  }

  const std::string& dir() const { return dir_; }
  int port() const { return port_; }
  int hosts() const { return hosts_; }
  std::string known_hosts() const { return dir_ + "/known_hosts"; }
  std::string identity() const { return dir_ + "/id_ed25519"; }
  // Host i (from 1) listens on 127.0.0.(i+1).
  static std::string Address(int i) {
    return "127.0.0." + std::to_string(i + 1);
  }
  std::string HostKeyPub(int i) const {
    return dir_ + "/host" + std::to_string(i) + "/ssh_host_ed25519_key.pub";
  }
  // "SHA256:..." of host i's key, as ssh-keygen prints it.
  std::string Fingerprint(int i) const {
    auto [rc, out] = Shell("ssh-keygen -E sha256 -lf " + HostKeyPub(i));
    std::istringstream in(out);
    std::string bits, fp;
    in >> bits >> fp;
    return fp;
  }
  // Host i's key as a known_hosts line body: "ssh-ed25519 AAAA...".
  std::string HostKeyLine(int i) const {
    std::ifstream in(HostKeyPub(i));
    std::string type, key;
    in >> type >> key;
    return type + " " + key;
  }

  // Everything needed to reach host i, checked strictly.
  SshTarget Target(int i) const {
    SshTarget t;
    t.name = "node" + std::to_string(i);
    t.address = Address(i);
    t.port = port_;
    t.identity = identity();
    t.known_hosts = known_hosts();
    t.host_key_check = HostKeyCheck::kStrict;
    t.connect_timeout = 10;
    return t;
  }

  // Sends `sig` to the processes serving host i's connections (not its
  // listener, so the host takes new connections afterwards).
  int SignalSessions(int i, int sig) const {
    std::ifstream in(dir_ + "/host" + std::to_string(i) + "/sshd.pid");
    pid_t listener = 0;
    in >> listener;
    if (listener <= 0) return 0;
    int n = 0;
    for (pid_t p : Descendants(listener)) n += ::kill(p, sig) == 0;
    return n;
  }

 private:
  std::string Env() const { return "GSRT_SSHD_PORT=auto GSRT_SSHD_WAIT=20 "; }
  static std::string Script() {
    if (const char* s = std::getenv("GSRT_SSHD_SCRIPT")) return s;
    return std::string(GSRT_SOURCE_DIR) + "/tests/testbed/sshd.sh";
  }

  int hosts_;
  std::string dir_;
  int port_ = 0;
};

inline SshdTestbed*& SshdInstance() {
  static SshdTestbed* instance = nullptr;
  return instance;
}

// The running testbed (registered by SshdEnvironment).
inline SshdTestbed& Sshd() { return *SshdInstance(); }

class SshdEnvironment : public ::testing::Environment {
 public:
  static ::testing::Environment* Register(int hosts) {
    return ::testing::AddGlobalTestEnvironment(new SshdEnvironment(hosts));
  }
  explicit SshdEnvironment(int hosts) : bed_(hosts) {}
  void SetUp() override {
    SshdInstance() = &bed_;
    const std::string error = bed_.Start();
    // No skipping: the tests must run wherever the suite runs.
    ASSERT_EQ(error, "") << "cannot start the sshd test hosts";
  }
  void TearDown() override { bed_.Stop(); }

 private:
  SshdTestbed bed_;
};

}  // namespace gs::testing

#endif  // GSRT_TESTS_SUPPORT_SSHD_TESTBED_H_
