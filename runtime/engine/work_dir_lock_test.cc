#include "runtime/engine/work_dir_lock.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/support/temp_dir.h"

namespace gs {
namespace {

TEST(WorkDirLockTest, SecondHolderIsRefusedWithTheFirstsPid) {
  TempDir dir;
  std::string work = dir / "w";  // not there yet: the lock creates it
  auto first = LockWorkDir(RealFileSystem(), work, 4242);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  auto second = LockWorkDir(RealFileSystem(), work, 4343);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), Status::Code::kUnavailable);
  const std::string& m = second.status().message();
  EXPECT_NE(m.find("pid 4242"), std::string::npos) << m;
  EXPECT_NE(m.find(work), std::string::npos) << m;
  EXPECT_NE(m.find("runtime.work_dir"), std::string::npos) << m;
  first->reset();
  auto third = LockWorkDir(RealFileSystem(), work, 4444);
  EXPECT_TRUE(third.ok()) << "a released lock still refuses";
}

TEST(WorkDirLockTest, AnotherProcessIsRefusedAndAKilledHolderFreesIt) {
  TempDir dir;
  std::string work = dir / "w";
  int ready[2], go[2];
  ASSERT_EQ(::pipe(ready), 0);
  ASSERT_EQ(::pipe(go), 0);
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto lock = LockWorkDir(RealFileSystem(), work, ::getpid());
    char c = lock.ok() ? 'y' : 'n';
    (void)!::write(ready[1], &c, 1);
    (void)!::read(go[0], &c, 1);  // holds the lock until told (or killed)
    ::_exit(0);
  }
  char c = 0;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  ASSERT_EQ(c, 'y');
  auto refused = LockWorkDir(RealFileSystem(), work, ::getpid());
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("pid " + std::to_string(child)),
            std::string::npos)
      << refused.status().message();
  ::kill(child, SIGKILL);  // a master killed: the kernel drops its lock
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(LockWorkDir(RealFileSystem(), work, ::getpid()).ok());
  for (int fd : {ready[0], ready[1], go[0], go[1]}) ::close(fd);
}

}  // namespace
}  // namespace gs
