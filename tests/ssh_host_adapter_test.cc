// The ssh adapter against real OpenSSH servers on 127.0.0.x, on what the
// adapter conformance suite cannot show with one host: hosts share the
// engine's io_context, and setting one up must not starve another.
#include "adapters/ssh/ssh_host_adapter.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/utsname.h>

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "adapters/ssh/ssh_remote.h"
#include "adapters/ssh/ssh_session.h"
#include "runtime/base/asio_clock.h"
#include "tests/support/run_until.h"
#include "tests/support/sshd_testbed.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_files.h"

namespace gs {
namespace {

using ::gs::testing::Sshd;
using ::testing::HasSubstr;

static auto* const kSshd = ::gs::testing::SshdEnvironment::Register(2);

// The master's agent heartbeat: both ends give the other up after three
// silent intervals.
constexpr Seconds kHeartbeat = 1;

SshHostOptions OptionsFor(int host, const std::string& workdir) {
  SshTarget target = Sshd().Target(host);
  SshHostOptions options;
  options.host.name = target.name;
  options.host.adapters = {AdapterKind::kSsh};
  options.host.address = target.address;
  options.host.port = target.port;
  options.host.identity = target.identity;
  options.host.known_hosts = target.known_hosts;
  options.host.slots = 1;
  options.host.workdir = workdir;
  options.host.shared_fs = true;
  options.agent_program = GSRT_AGENT;
  options.worker = GSRT_TEST_WORKER;
  options.heartbeat = kHeartbeat;
  return options;
}

// The engine connects its hosts one after another on its own thread before
// the io_context's thread starts; a host's setup runs blocking remote
// commands (install, --version), which on a slow host take seconds. The
// agents of the hosts connected before must go on exchanging heartbeats
// meanwhile, or both ends give each other up.
TEST(SshHostAdapterTest, AConnectedAgentSurvivesALongSetupStepOfAnotherHost) {
  boost::asio::io_context io;
  AsioClock clock(io);
  TempDir work;
  SshHostAdapter first(io, clock, OptionsFor(1, work / "node1"));
  ASSERT_TRUE(first.Connect().ok());

  // A setup step on the next host that outlasts three heartbeats.
  auto next = SshSession::Connect(io, clock, Sshd().Target(2));
  ASSERT_TRUE(next.ok()) << next.status().ToString();
  RunOptions slow;
  slow.timeout = 60;
  const auto start = std::chrono::steady_clock::now();
  auto step = RunCommand(**next, {"sleep", "5"}, slow);
  ASSERT_TRUE(step.ok()) << step.status().ToString();
  ASSERT_GT(std::chrono::steady_clock::now() - start,
            std::chrono::duration<double>(3 * kHeartbeat));

  EXPECT_TRUE(first.connected());
  std::optional<StatusOr<HostProbe>> probe;
  first.Probe([&](StatusOr<HostProbe> p) { probe = std::move(p); });
  ASSERT_TRUE(RunUntil(io, [&] { return probe.has_value(); }));
  EXPECT_TRUE(probe->ok()) << probe->status().ToString();
  first.Shutdown();
}

// Programs by default.
void WriteFile(const std::string& path, const std::string& bytes,
               std::filesystem::perms mode = std::filesystem::perms(0755)) {
  WriteText(path, bytes, mode);
}

// A host that does not share the master's files: the agent and a worker
// that answers --version are installed in `workdir`/bin.
SshHostOptions InstalledOptions(const std::string& workdir,
                                const std::string& agent) {
  SshHostOptions options = OptionsFor(1, workdir);
  options.host.shared_fs = false;
  options.agent_program = agent;
  options.worker = GSRT_SERVE_TEST_WORKER;
  return options;
}

// The programs installed on a host that does not share the master's files
// are checked, and the agent started, through one exec channel. A wrapper
// installed as the agent logs each start's arguments: the agent's own
// start is its check, so the log shows every `--version` an install ran.
class InstalledHostTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Quotes, `$(...)`, spaces: a work dir name a shell would mangle.
    workdir_ = work_ / "it's $(echo) `x` a dir;*";
    log_ = logs_ / "starts";
    agent_ = logs_ / "agent";
    WriteFile(agent_, "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '" + log_ +
                          "'\nexec '" GSRT_AGENT "' \"$@\"\n");
  }
  // Connects a new adapter, probes it, shuts it down; the log of starts.
  std::string ConnectOnce() {
    std::filesystem::remove(log_);
    SshHostAdapter host(io_, clock_, InstalledOptions(workdir_, agent_));
    Status s = host.Connect();
    EXPECT_TRUE(s.ok()) << s.ToString();
    if (s.ok()) {
      std::optional<StatusOr<HostProbe>> probe;
      host.Probe([&](StatusOr<HostProbe> p) { probe = std::move(p); });
      EXPECT_TRUE(RunUntil(io_, [&] { return probe.has_value(); }));
      EXPECT_TRUE(probe && probe->ok());
    }
    host.Shutdown();
    return ReadAll(log_);
  }
  std::string RemoteWorker() const {
    return workdir_ + "/bin/" +
           std::filesystem::path(GSRT_SERVE_TEST_WORKER).filename().string();
  }

  boost::asio::io_context io_;
  AsioClock clock_{io_};
  TempDir work_, logs_;
  std::string workdir_, log_, agent_;
};

TEST_F(InstalledHostTest,
       AHostInstalledBeforeStartsTheAgentRightAfterTheCheck) {
  const std::string first = ConnectOnce();
  EXPECT_THAT(first, HasSubstr("--version\n")) << "installed, then checked";
  EXPECT_THAT(first, HasSubstr("--workdir")) << "then started";
  EXPECT_EQ(ReadAll(RemoteWorker()), ReadAll(GSRT_SERVE_TEST_WORKER));
  const std::string later = ConnectOnce();
  EXPECT_THAT(later, ::testing::StartsWith("--workdir"))
      << "nothing installed, no --version: the check execs the agent";
  EXPECT_EQ(later.find('\n'), later.size() - 1) << "one start: " << later;
  EXPECT_TRUE(std::filesystem::is_directory(workdir_ + "/bin"))
      << "made under its literal name";
}

TEST_F(InstalledHostTest, AWorkerThatDiffersIsInstalledBeforeTheAgentStarts) {
  ConnectOnce();
  WriteFile(RemoteWorker(), ReadAll(GSRT_SERVE_TEST_WORKER) + "changed");
  const std::string later = ConnectOnce();
  EXPECT_EQ(ReadAll(RemoteWorker()), ReadAll(GSRT_SERVE_TEST_WORKER))
      << "uploaded again";
  EXPECT_THAT(later, ::testing::StartsWith("--version\n--workdir"))
      << "the check ran the agent's --version once, as it would not start "
         "it; the agent passed and only the worker was installed";
}

// /bin/true with another machine type in its ELF header: what an agent
// built for another architecture looks like.
std::string ForeignElf() {
  std::string elf = ReadAll("/bin/true");
  struct utsname u;
  ::uname(&u);
  elf[18] = static_cast<char>(std::string(u.machine) == "x86_64" ? 0xB7 : 0x3E);
  elf[19] = 0;
  return elf;
}

TEST_F(InstalledHostTest, AnAgentThatCannotStartIsNamedWithItsHost) {
  ConnectOnce();  // everything in place
  WriteFile(agent_, ForeignElf());
  const std::string remote_agent = workdir_ + "/bin/gsrt-agent";
  // With the same bytes in place the check passes and its exec fails; then
  // with none in place the check fails and the install does. Both times the
  // install path says why the agent does not start.
  for (bool in_place : {true, false}) {
    if (in_place) {
      WriteFile(remote_agent, ReadAll(agent_));
    } else {
      std::filesystem::remove(remote_agent);
    }
    SshHostAdapter host(io_, clock_, InstalledOptions(workdir_, agent_));
    Status s = host.Connect();
    EXPECT_EQ(s.code(), Status::Code::kFailedPrecondition) << s.ToString();
    EXPECT_THAT(s.message(), HasSubstr("host 'node1': gsrt-agent"));
    EXPECT_THAT(s.message(), HasSubstr("does not start"));
    EXPECT_THAT(s.message(), HasSubstr("Wrong architecture?"));
    EXPECT_FALSE(host.connected());
  }
}

TEST_F(InstalledHostTest, AWorkDirThatCannotBeMadeIsNamedWithItsHost) {
  std::filesystem::create_directories(workdir_);
  WriteFile(workdir_ + "/bin", "a file where the directory should be");
  SshHostAdapter host(io_, clock_, InstalledOptions(workdir_, agent_));
  Status s = host.Connect();
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("host 'node1'"));
  EXPECT_THAT(s.message(), HasSubstr("creating the directory"));
  EXPECT_THAT(s.message(), HasSubstr("workdir"));
}

// GS_On's way (docs/ssh.md, "The start"): Prepare logs in, checks and
// installs, each phase told; Connect then starts the agent alone.
TEST_F(InstalledHostTest,
       PrepareInstallsOnFirstContactAndConnectStartsTheAgent) {
  for (bool first : {true, false}) {
    SCOPED_TRACE(first ? "first contact" : "installed before");
    std::filesystem::remove(log_);
    SshHostAdapter host(io_, clock_, InstalledOptions(workdir_, agent_));
    std::vector<StartPhase> phases;
    host.SetStartPhases([&](StartPhase p) { phases.push_back(p); });
    Status s = host.Prepare();
    ASSERT_TRUE(s.ok()) << s.ToString();
    const std::string prepared = ReadAll(log_);
    EXPECT_EQ(prepared, "--version\n")
        << "the install's (or the check's) --version; no agent started yet";
    std::vector<StartPhase> expected = {StartPhase::kConnecting,
                                        StartPhase::kChecking};
    if (first) expected.push_back(StartPhase::kInstalling);
    EXPECT_EQ(phases, expected);
    EXPECT_EQ(ReadAll(RemoteWorker()), ReadAll(GSRT_SERVE_TEST_WORKER));
    s = host.Connect();
    ASSERT_TRUE(s.ok()) << s.ToString();
    expected.push_back(StartPhase::kStarting);
    EXPECT_EQ(phases, expected) << "no second login, check or install";
    const std::string started = ReadAll(log_).substr(prepared.size());
    EXPECT_THAT(started, ::testing::StartsWith("--workdir"));
    EXPECT_EQ(started.find('\n'), started.size() - 1) << "one start";
    host.Shutdown();
  }
}

TEST_F(InstalledHostTest, APrepareThatCannotMakeTheWorkDirNamesTheHost) {
  std::filesystem::create_directories(workdir_);
  WriteFile(workdir_ + "/bin", "a file where the directory should be");
  SshHostAdapter host(io_, clock_, InstalledOptions(workdir_, agent_));
  Status s = host.Prepare();
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("host 'node1'"));
  EXPECT_THAT(s.message(), HasSubstr("workdir"));
}

}  // namespace
}  // namespace gs
