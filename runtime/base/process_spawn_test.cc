#include "runtime/base/process_spawn.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/support/temp_dir.h"
#include "tests/support/test_files.h"

namespace gs {
namespace {

class ProcessSpawnTest : public ::testing::Test {
 protected:
  ProcessSpawnTest() : devnull_(::open("/dev/null", O_RDONLY | O_CLOEXEC)) {}
  ~ProcessSpawnTest() override { ::close(devnull_); }

  StatusOr<SpawnedProcess> Spawn(const std::vector<std::string>& argv) {
    argv_ = argv;
    SpawnRequest req;
    req.argv = &argv_;
    req.cwd = dir_.path();
    req.devnull_fd = devnull_;
    return SpawnProcess(req);
  }

  // Waits (bounded) for the pidfd to become readable, then reaps.
  int WaitExit(const SpawnedProcess& p) {
    pollfd pfd{p.pidfd, POLLIN, 0};
    EXPECT_EQ(::poll(&pfd, 1, 30000), 1) << "process did not exit in time";
    int status = -1;
    EXPECT_EQ(::waitpid(p.pid, &status, WNOHANG), p.pid);
    ::close(p.pidfd);
    return status;
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
  req.devnull_fd = devnull_;
  EXPECT_FALSE(SpawnProcess(req).ok());
}

}  // namespace
}  // namespace gs
