#include "runtime/base/process_spawn.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "tests/support/temp_dir.h"
#include "tests/support/test_files.h"

namespace gs {
namespace {

// Waits (bounded) for the pidfd to become readable, then reaps.
int WaitExit(const SpawnedProcess& p) {
  pollfd pfd{p.pidfd, POLLIN, 0};
  EXPECT_EQ(::poll(&pfd, 1, 30000), 1) << "process did not exit in time";
  int status = -1;
  EXPECT_EQ(::waitpid(p.pid, &status, WNOHANG), p.pid);
  ::close(p.pidfd);
  return status;
}

class ProcessSpawnTest : public ::testing::Test {
 protected:
  ProcessSpawnTest() : devnull_(::open("/dev/null", O_RDONLY | O_CLOEXEC)) {}
  ~ProcessSpawnTest() override { ::close(devnull_); }

  // As the local adapter starts a worker: in its own directory, stdin
  // from /dev/null, stdout and stderr to files there.
  StatusOr<SpawnedProcess> Spawn(const std::vector<std::string>& argv) {
    argv_ = argv;
    SpawnRequest req;
    req.argv = &argv_;
    req.cwd = dir_.path();
    req.in.fd = devnull_;
    req.out.file = "stdout";
    req.err.file = "stderr";
    return SpawnProcess(req);
  }

  TempDir dir_;
  int devnull_;
  std::vector<std::string> argv_;
};

TEST_F(ProcessSpawnTest, ArgvStdoutAndCwd) {
  auto p = Spawn({"/bin/echo", "a b", "$HOME;", "`x`"});
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  int status = WaitExit(*p);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  // Relative stdout name: the child ran in dir_.
  EXPECT_EQ(ReadText(dir_ / "stdout"), "a b $HOME; `x`\n");
  EXPECT_EQ(ReadText(dir_ / "stderr"), "");
}

TEST_F(ProcessSpawnTest, OwnProcessGroupAndPidfdSeesTheKill) {
  auto p = Spawn({"/bin/sleep", "60"});
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(::getpgid(p->pid), p->pid);
  EXPECT_GE(::fcntl(p->pidfd, F_GETFD) & FD_CLOEXEC, 1);
  ASSERT_EQ(::kill(-p->pid, SIGKILL), 0);
  int status = WaitExit(*p);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGKILL);
}

TEST_F(ProcessSpawnTest, MissingProgramIsAStatus) {
  auto p = Spawn({dir_ / "nope", "x"});
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find(dir_ / "nope"), std::string::npos);
}

TEST_F(ProcessSpawnTest, MissingCwdIsAStatus) {
  argv_ = {"/bin/echo"};
  SpawnRequest req;
  req.argv = &argv_;
  req.cwd = dir_ / "absent";
  EXPECT_FALSE(SpawnProcess(req).ok());
}

// As PipeStream starts an agent: a name from $PATH, stdin and stdout one
// descriptor, the caller's process group and directory.
TEST(ProcessSpawnPipeTest, SearchPathDescriptorsAndTheCallersGroup) {
  int sv[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
  const std::vector<std::string> argv = {"sh", "-c",
                                         "read line; echo \"got $line\"; pwd"};
  SpawnRequest req;
  req.argv = &argv;
  req.search_path = true;
  req.in.fd = sv[1];
  req.out.fd = sv[1];
  req.own_process_group = false;
  auto p = SpawnProcess(req);
  ::close(sv[1]);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(::getpgid(p->pid), ::getpgrp());
  ASSERT_EQ(::write(sv[0], "hi\n", 3), 3);
  int status = WaitExit(*p);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  std::string out(256, '\0');
  const ssize_t n = ::read(sv[0], out.data(), out.size());
  ::close(sv[0]);
  ASSERT_GT(n, 0);
  out.resize(static_cast<size_t>(n));
  char cwd[4096];
  ASSERT_NE(::getcwd(cwd, sizeof cwd), nullptr);
  EXPECT_EQ(out, "got hi\n" + std::string(cwd) + "\n");
}

TEST(ProcessSpawnPipeTest, ChildrenGetSigpipeBackAndNoBlockedSignals) {
  struct sigaction ignore {
  }, old{};
  ignore.sa_handler = SIG_IGN;
  ASSERT_EQ(::sigaction(SIGPIPE, &ignore, &old), 0);
  sigset_t block, old_mask;
  sigemptyset(&block);
  sigaddset(&block, SIGUSR1);
  ASSERT_EQ(::pthread_sigmask(SIG_BLOCK, &block, &old_mask), 0);
  // /proc/self/status of the child: SigIgn and SigBlk as hex masks.
  auto run = RunProgram(
      {"/bin/sh", "-c", "exec grep -E '^Sig(Ign|Blk)' /proc/self/status"}, 10);
  ::pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
  ::sigaction(SIGPIPE, &old, nullptr);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  const uint64_t pipe_bit = uint64_t{1} << (SIGPIPE - 1);
  const uint64_t usr1_bit = uint64_t{1} << (SIGUSR1 - 1);
  uint64_t ign = 0, blk = 0;
  for (size_t at = 0; at < run->out.size();) {
    const size_t nl = run->out.find('\n', at);
    const std::string line = run->out.substr(at, nl - at);
    const uint64_t mask = std::strtoull(line.c_str() + 7, nullptr, 16);
    (line.rfind("SigIgn:", 0) == 0 ? ign : blk) = mask;
    at = nl == std::string::npos ? run->out.size() : nl + 1;
  }
  EXPECT_EQ(ign & pipe_bit, 0u) << run->out;
  EXPECT_EQ(blk & usr1_bit, 0u) << run->out;
}

TEST(FindInPathTest, FindsExecutablesAndKeepsPaths) {
  const std::string sh = FindInPath("sh");
  ASSERT_FALSE(sh.empty());
  EXPECT_EQ(sh[0], '/');
  EXPECT_EQ(::access(sh.c_str(), X_OK), 0);
  EXPECT_EQ(FindInPath("gsrt-no-such-program"), "");
  EXPECT_EQ(FindInPath("./local/prog"), "./local/prog");
}

TEST(RunProgramTest, ProgramOutputAndExitCode) {
  auto run =
      RunProgram({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"}, 10);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_EQ(run->exit_code, 3);
  EXPECT_EQ(run->out, "out\n");
  EXPECT_EQ(run->err, "err\n");
  EXPECT_EQ(DescribeFailure({"/bin/sh", "-c", "x"}, *run),
            "`/bin/sh -c x` exited with code 3: err");
}

// The output lives in memory: nothing is made in $TMPDIR, where a master
// killed while a program runs would leave it; only the tail is kept.
TEST(RunProgramTest, NothingInTmpdirAndTheOutputsTail) {
  TempDir tmp;
  const char* old = std::getenv("TMPDIR");
  const std::string saved = old ? old : "";
  ::setenv("TMPDIR", tmp.path().c_str(), 1);
  auto run =
      RunProgram({"/bin/sh", "-c",
                  "pwd; i=0; while [ $i -lt 20000 ]; do echo 0123456789; "
                  "i=$((i + 1)); done; echo last"},
                 30);
  std::error_code ec;
  const bool empty = std::filesystem::is_empty(tmp.path(), ec);
  if (old) {
    ::setenv("TMPDIR", saved.c_str(), 1);
  } else {
    ::unsetenv("TMPDIR");
  }
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_TRUE(empty);
  EXPECT_EQ(run->out.size(), 64u << 10);
  EXPECT_EQ(run->out.substr(run->out.size() - 16), "0123456789\nlast\n");
}

TEST(RunProgramTest, TimeoutKillsTheProgram) {
  auto run = RunProgram({"/bin/sh", "-c", "sleep 30"}, 0.2);
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().code(), Status::Code::kTimedOut);
}

TEST(RunProgramTest, MissingProgramAndRelativePath) {
  auto run = RunProgram({"/nonexistent/prog", "--version"}, 10);
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.status().message().find("/nonexistent/prog"),
            std::string::npos);
  EXPECT_EQ(RunProgram({"sh", "-c", "true"}, 10).status().code(),
            Status::Code::kInvalidArgument);
}

}  // namespace
}  // namespace gs
