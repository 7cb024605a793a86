// Remote commands and file installation against real OpenSSH servers on
// 127.0.0.x. The servers run on this machine as this user, so the test
// checks remote results on the local file system too.
#include "adapters/ssh/ssh_remote.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <random>
#include <sstream>
#include <thread>

#include "adapters/ssh/install_check.h"
#include "adapters/ssh/ssh_channel_stream.h"
#include "runtime/base/asio_clock.h"
#include "runtime/base/sha256.h"
#include "tests/support/run_until.h"
#include "tests/support/ssh_command_cost.h"
#include "tests/support/sshd_testbed.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_files.h"

namespace gs {
namespace {

using ::gs::testing::AsDuration;
using ::gs::testing::BoundFor;
using ::gs::testing::CommandCost;
using ::gs::testing::Sshd;
using ::testing::HasSubstr;

static auto* const kSshd = ::gs::testing::SshdEnvironment::Register(3);

double Since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

void WriteFile(const std::string& path, const std::string& bytes,
               int mode = 0644) {
  WriteText(path, bytes, static_cast<std::filesystem::perms>(mode));
}

int ModeOf(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 ? (st.st_mode & 07777) : -1;
}

ino_t InodeOf(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 ? st.st_ino : 0;
}

// The pid a remote `echo $$ > FILE` wrote, once it is there (0 if it is not
// within `bound`). A command that timed out may not have started yet: its
// shell runs on and writes the file later.
pid_t AwaitPid(const std::string& file, Seconds bound) {
  const auto deadline = std::chrono::steady_clock::now() + AsDuration(bound);
  while (true) {
    pid_t pid = 0;
    std::ifstream(file) >> pid;
    if (pid > 0 || std::chrono::steady_clock::now() >= deadline) return pid;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

RunOptions Options(Seconds timeout, std::string stdin_data = "") {
  RunOptions o;
  o.timeout = timeout;
  o.stdin_data = std::move(stdin_data);
  return o;
}

class SshRemoteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto s = SshSession::Connect(io_, clock_, Sshd().Target(1));
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    session_ = *s;
  }
  boost::asio::io_context io_;
  AsioClock clock_{io_};
  TempDir tmp_;  // the same path is "remote" (sshd runs on this machine)
  std::shared_ptr<SshSession> session_;
};

TEST_F(SshRemoteTest, RunCommandCollectsOutputExitStatusAndStdin) {
  auto r = RunCommand(*session_, {"sh", "-c", "cat; echo err >&2; exit 7"},
                      Options(30, "in\n"));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->out, "in\n");
  EXPECT_EQ(r->err, "err\n");
  EXPECT_EQ(r->exit_code, 7);

  auto killed = RunCommand(*session_, {"sh", "-c", "kill -9 $$"});
  ASSERT_TRUE(killed.ok()) << killed.status().ToString();
  EXPECT_EQ(killed->exit_code, -1);
  EXPECT_EQ(killed->signal, "KILL");

  // The cost of a short command on an open session.
  constexpr int kRuns = 5;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < kRuns; ++i) {
    auto t = RunCommand(*session_, {"true"});
    ASSERT_TRUE(t.ok() && t->exit_code == 0);
  }
  const double each = Since(start) / kRuns;
  std::cout << "[ measure ] RunCommand(true) on an open session: "
            << each * 1000 << " ms each\n";
  RecordProperty("run_command_ms", std::to_string(each * 1000));
}

TEST_F(SshRemoteTest, RunCommandTimesOutWithinItsBound) {
  const double cost = CommandCost(*session_);
  ASSERT_GT(cost, 0);
  const std::string pidfile = tmp_ / "pid";
  const auto start = std::chrono::steady_clock::now();
  auto r = RunCommand(
      *session_, {"sh", "-c", "echo $$ > \"$1\"; exec sleep 30", "sh", pidfile},
      Options(0.5));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kTimedOut);
  EXPECT_THAT(r.status().message(), HasSubstr("sleep 30"));
  EXPECT_THAT(r.status().message(), HasSubstr("node1"));
  EXPECT_LT(Since(start), 3.0);
  // sshd ran the command on this machine. OpenSSH refuses signal requests
  // for root logins, so the KILL sent on timeout may not have reached it,
  // and on a slow machine the shell may start only after the timeout: end
  // it here, by its pid, once it wrote it.
  const pid_t pid = AwaitPid(pidfile, BoundFor(1, cost));
  ASSERT_GT(pid, 0) << "the remote shell never started";
  ::kill(pid, SIGKILL);
  // The session is still usable.
  auto after = RunCommand(*session_, {"echo", "ok"});
  ASSERT_TRUE(after.ok()) << after.status().ToString();
  EXPECT_EQ(after->out, "ok\n");
}

TEST_F(SshRemoteTest, RunCommandAsyncReportsResultAndTimeout) {
  const double cost = CommandCost(*session_);
  ASSERT_GT(cost, 0);
  std::optional<StatusOr<CommandResult>> fast, slow;
  RunCommandAsync(session_, {"echo", "a b"}, {},
                  [&](StatusOr<CommandResult> r) { fast = std::move(r); });
  const std::string pidfile = tmp_ / "pid";
  RunCommandAsync(
      session_, {"sh", "-c", "echo $$ > \"$1\"; exec sleep 30", "sh", pidfile},
      Options(0.5), [&](StatusOr<CommandResult> r) { slow = std::move(r); });
  EXPECT_FALSE(fast.has_value());  // never from inside the call
  ASSERT_TRUE(RunUntil(
      io_, [&] { return fast && slow; }, AsDuration(BoundFor(2, cost))));
  ASSERT_TRUE(fast->ok()) << fast->status().ToString();
  EXPECT_EQ((*fast)->out, "a b\n");
  ASSERT_FALSE(slow->ok());
  EXPECT_EQ(slow->status().code(), Status::Code::kTimedOut);
  // The sleep may run on (see RunOptions::timeout), and may start only
  // after the timeout: end it once it wrote its pid.
  const pid_t pid = AwaitPid(pidfile, BoundFor(2, cost));
  ASSERT_GT(pid, 0) << "the remote shell never started";
  ::kill(pid, SIGKILL);
}

// Called where no thread runs the io_context (an adapter connecting before
// the engine's thread starts), a blocking command lets the io_context's
// other work run while it waits: here a stream on another host, whose
// command must start for the blocking one to end.
TEST_F(SshRemoteTest, RunCommandServesTheIoContextWhileItWaits) {
  auto other = SshSession::Connect(io_, clock_, Sshd().Target(2));
  ASSERT_TRUE(other.ok()) << other.status().ToString();
  const double cost = CommandCost(*session_);
  ASSERT_GT(cost, 0);
  const std::string flag = tmp_ / "flag";
  auto stream = SshChannelStream::Open(
      *other, {"sh", "-c", "touch \"$1\" && exec cat", "sh", flag});
  ASSERT_TRUE(stream.ok());
  std::string echoed;
  (*stream)->Start([&](std::string_view b) { echoed.append(b); },
                   [](Status) {});
  (*stream)->Write("ping");
  // Nothing ran yet: the stream's channel opens only when the io_context
  // runs. The loop gives up by itself too: a timed-out command runs on.
  const Seconds bound = BoundFor(2, cost);
  auto r = RunCommand(*session_,
                      {"sh", "-c",
                       "end=$(($(date +%s) + $2)); "
                       "until [ -e \"$1\" ] || [ $(date +%s) -ge $end ]; do "
                       "sleep 0.05; done; [ -e \"$1\" ]",
                       "sh", flag, std::to_string(static_cast<int>(bound))},
                      Options(bound));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->exit_code, 0);
  ASSERT_TRUE(RunUntil(io_, [&] { return echoed == "ping"; }));
  (*stream)->Close();
}

// Called from inside a handler, it blocks: no other handler runs inside it
// (they may expect the one running to have finished).
TEST_F(SshRemoteTest, RunCommandInsideAHandlerRunsNoOtherHandler) {
  bool ran = false, ran_inside = true, done = false;
  boost::asio::post(io_, [&] {
    auto r = RunCommand(*session_, {"true"});
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    ran_inside = ran;
    done = true;
  });
  boost::asio::post(io_, [&] { ran = true; });
  ASSERT_TRUE(RunUntil(io_, [&] { return done && ran; }));
  EXPECT_FALSE(ran_inside);
}

// Inside a handler (as the engine reconnects a host) nothing else reads the
// socket: a connection that dies under the command must end it at once,
// not leave it spinning on the closed socket until its timeout.
TEST_F(SshRemoteTest, ACommandInsideAHandlerEndsWhenTheConnectionDies) {
  std::optional<StatusOr<CommandResult>> result;
  boost::asio::post(io_, [&] {
    // The shell's parent is sshd's process for this connection.
    result =
        RunCommand(*session_, {"sh", "-c", "kill -KILL $PPID; exec sleep 20"},
                   Options(/*timeout=*/20));
  });
  ASSERT_TRUE(RunUntil(io_, [&] { return result.has_value(); }));
  ASSERT_FALSE(result->ok());
  EXPECT_EQ(result->status().code(), Status::Code::kUnavailable)
      << result->status().ToString();
  EXPECT_THAT(result->status().message(), HasSubstr("was lost"));
  EXPECT_TRUE(session_->lost());
}

TEST_F(SshRemoteTest, EnsureRemoteDirCreatesAPrivateDirectory) {
  const std::string dir = tmp_ / "a b/c'd/work";
  ASSERT_TRUE(EnsureRemoteDir(*session_, dir).ok());
  EXPECT_TRUE(std::filesystem::is_directory(dir));
  EXPECT_EQ(ModeOf(dir), 0700);
  EXPECT_TRUE(EnsureRemoteDir(*session_, dir).ok()) << "idempotent";
  WriteFile(tmp_ / "file", "x");
  Status s = EnsureRemoteDir(*session_, tmp_ / "file/sub");
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("file/sub"));
  EXPECT_THAT(s.message(), HasSubstr("node1"));
}

TEST_F(SshRemoteTest, UploadStreamsTheFileAndChecksItsHash) {
  std::string bytes(3 * 1024 * 1024 + 17, '\0');
  std::mt19937 rng(7);
  for (auto& c : bytes) c = static_cast<char>(rng());
  const std::string local = tmp_ / "local.bin";
  WriteFile(local, bytes);
  const std::string remote = tmp_ / "remote dir/copy.bin";
  auto up = UploadFile(*session_, local, remote, 0640, /*timeout=*/60);
  ASSERT_TRUE(up.ok()) << up.status().ToString();
  EXPECT_EQ(up->bytes, bytes.size());
  Sha256 sha;
  ASSERT_TRUE(HashFile(local, &sha).ok());
  const std::string digest = sha.Hex();
  EXPECT_EQ(up->sha256, digest);
  EXPECT_TRUE(ReadAll(remote) == bytes);
  EXPECT_EQ(ModeOf(remote), 0640);
  // No temporary file is left behind.
  int entries = 0;
  for (const auto& e :
       std::filesystem::directory_iterator(tmp_ / "remote dir")) {
    (void)e;
    ++entries;
  }
  EXPECT_EQ(entries, 1);
  auto remote_hash = RemoteSha256(*session_, remote);
  ASSERT_TRUE(remote_hash.ok());
  EXPECT_EQ(*remote_hash, digest);
  auto none = RemoteSha256(*session_, tmp_ / "nothing");
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(*none, "");
}

TEST_F(SshRemoteTest, InstallUploadsOnlyWhenDifferent) {
  const std::string local = tmp_ / "fake-agent";
  WriteFile(local, "#!/bin/sh\necho \"fake-agent 1.0 $1\"\n", 0600);
  const std::string remote = tmp_ / "bin/fake-agent";
  auto first = InstallIfDifferent(*session_, local, remote);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_TRUE(first->uploaded);
  EXPECT_EQ(first->version, "fake-agent 1.0 --version");
  EXPECT_EQ(ModeOf(remote), 0755);
  const ino_t inode = InodeOf(remote);

  auto second = InstallIfDifferent(*session_, local, remote);
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_FALSE(second->uploaded);
  EXPECT_EQ(InodeOf(remote), inode) << "an upload replaces the file";
  EXPECT_EQ(second->version, "fake-agent 1.0 --version");

  WriteFile(local, "#!/bin/sh\necho fake-agent 2.0\n");
  auto third = InstallIfDifferent(*session_, local, remote);
  ASSERT_TRUE(third.ok()) << third.status().ToString();
  EXPECT_TRUE(third->uploaded);
  EXPECT_EQ(third->version, "fake-agent 2.0");
}

std::string Sha256OfFile(const std::string& path) {
  Sha256 hash;
  EXPECT_TRUE(HashFile(path, &hash).ok()) << path;
  return hash.Hex();
}

// The install check of a connect (install_check.h), through sshd and the
// login shell: a program counts only when its remote copy has the same
// bytes and starts; the rest goes to InstallIfDifferent.
TEST_F(SshRemoteTest, TheInstallCheckTellsWhichProgramsNeedAnInstall) {
  const std::string agent = tmp_ / "fake-agent";
  const std::string worker = tmp_ / "fake-worker";
  WriteFile(agent, "#!/bin/sh\necho fake-agent 1.0\n", 0600);
  WriteFile(worker, "#!/bin/sh\nexit 1\n", 0600);  // does not start
  const std::string bin = tmp_ / "new dir/bin";
  auto check =
      [&](const std::vector<std::pair<std::string, std::string>>& programs)
      -> std::optional<std::vector<bool>> {
    std::vector<InstalledProgram> checked;
    for (const auto& [local, remote] : programs) {
      checked.push_back({remote, Sha256OfFile(local)});
    }
    auto r = RunCommand(*session_, InstallCheckArgv(bin, checked));
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    if (!r.ok()) return std::nullopt;
    EXPECT_EQ(r->exit_code, 0) << r->err;
    return ParseInstallCheckLine(r->out.substr(0, r->out.find('\n')),
                                 programs.size());
  };
  const std::vector<std::pair<std::string, std::string>> programs = {
      {agent, bin + "/fake-agent"}, {worker, bin + "/fake-worker"}};
  EXPECT_EQ(check(programs), (std::vector<bool>{false, false}))
      << "nothing installed yet";
  EXPECT_TRUE(std::filesystem::is_directory(bin))
      << "the directory is made all the same";
  EXPECT_EQ(ModeOf(bin), 0700);
  for (const auto& [local, remote] : programs) {
    ASSERT_TRUE(InstallIfDifferent(*session_, local, remote).ok() ||
                local == worker);
  }
  EXPECT_EQ(check(programs), (std::vector<bool>{true, false}))
      << "the worker has the same bytes but does not start";
  WriteFile(agent, "#!/bin/sh\necho fake-agent 2.0\n", 0600);
  EXPECT_EQ(check({programs[0]}), (std::vector<bool>{false}))
      << "the local copy changed";
}

// When the check passes it execs the program on the same channel: what the
// master wrote meanwhile waits on stdin for it, and what it prints follows
// the check's line.
TEST_F(SshRemoteTest, ACheckedStartHandsTheChannelToTheProgram) {
  const std::string echo = tmp_ / "echo-agent";
  WriteFile(echo, "#!/bin/sh\nprintf '<%s>' \"$@\"; exec cat\n");
  const std::vector<std::string> argv = {echo, "a b", "'$x'"};
  auto stream = SshChannelStream::Open(
      session_,
      InstallCheckArgv(tmp_ / "bin", {{echo, Sha256OfFile(echo)}}, argv));
  ASSERT_TRUE(stream.ok()) << stream.status().ToString();
  std::string got;
  std::optional<Status> closed;
  (*stream)->Start([&](std::string_view b) { got += b; },
                   [&](Status why) { closed = why; });
  (*stream)->Write("master's first bytes");
  const std::string want = "gsrt-check: same\n<a b><'$x'>master's first bytes";
  const double cost = CommandCost(*session_);
  EXPECT_TRUE(RunUntil(
      io_, [&] { return got.size() >= want.size(); },
      AsDuration(BoundFor(1, cost))))
      << got;
  EXPECT_EQ(got, want);
  EXPECT_FALSE(closed.has_value());
  (*stream)->Close();
}

TEST_F(SshRemoteTest, AProgramThatCannotStartGivesAClearError) {
  // /bin/true with another machine type in its ELF header: what a binary
  // built for the wrong architecture looks like.
  std::string elf = ReadAll("/bin/true");
  ASSERT_GT(elf.size(), 20u);
  struct utsname u;
  ::uname(&u);
  const bool x86 = std::string(u.machine) == "x86_64";
  elf[18] = static_cast<char>(x86 ? 0xB7 : 0x3E);  // e_machine: aarch64/x86-64
  elf[19] = 0;
  const std::string local = tmp_ / "gsrt-agent";
  WriteFile(local, elf);
  auto r = InstallIfDifferent(*session_, local, tmp_ / "bin/gsrt-agent");
  ASSERT_FALSE(r.ok());
  const Status& s = r.status();
  EXPECT_EQ(s.code(), Status::Code::kFailedPrecondition);
  EXPECT_THAT(s.message(), HasSubstr("gsrt-agent on host node1"));
  EXPECT_THAT(s.message(), HasSubstr("does not start"));
  EXPECT_THAT(s.message(), HasSubstr("Exec format error"));
  EXPECT_THAT(s.message(), HasSubstr("Wrong architecture?"));
  EXPECT_THAT(s.message(), HasSubstr(u.machine));
}

TEST_F(SshRemoteTest, UploadOfAMissingFileNamesIt) {
  auto up = UploadFile(*session_, tmp_ / "absent", tmp_ / "x");
  ASSERT_FALSE(up.ok());
  EXPECT_THAT(up.status().message(), HasSubstr(tmp_ / "absent"));
}

}  // namespace
}  // namespace gs
