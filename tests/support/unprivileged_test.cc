#include "tests/support/unprivileged.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "tests/support/temp_dir.h"
#include "tests/support/test_files.h"

namespace gs {
namespace {

TEST(RunAsUnprivilegedTest, ReturnsTheActionsResultWithoutRoot) {
  const uid_t parent = ::geteuid();
  UnprivilegedRun run = RunAsUnprivileged([] {
    return std::to_string(::geteuid()) + " " +
           std::to_string(::getgroups(0, nullptr));
  });
  ASSERT_TRUE(run.ran) << run.failure;
  if (parent == 0) {
    EXPECT_NE(run.result.substr(0, 2), "0 ") << run.result;
    EXPECT_EQ(run.result.substr(run.result.find(' ')), " 0") << run.result;
  } else {
    EXPECT_EQ(run.result.substr(0, run.result.find(' ')),
              std::to_string(parent));
  }
}

// What the permission tests rely on: the action is held to mode bits, in a
// directory it may otherwise use.
TEST(RunAsUnprivilegedTest, ModeBitsHoldInADirectoryGivenToIt) {
  TempDir dir;
  ASSERT_EQ(GiveToUnprivileged(dir.path()), "");
  WriteText(dir / "secret", "x", std::filesystem::perms::none);
  UnprivilegedRun run = RunAsUnprivileged([&dir] {
    WriteText(dir / "mine", "y");
    return ReadAll(dir / "mine") + (ReadText(dir / "secret") ? "x" : "-");
  });
  ASSERT_TRUE(run.ran) << run.failure;
  EXPECT_EQ(run.result, "y-");
}

TEST(RunAsUnprivilegedTest, ExitOfTheChildIsAFailure) {
  if (::geteuid() != 0) GTEST_SKIP() << "the action runs in this process";
  UnprivilegedRun run = RunAsUnprivileged([]() -> std::string { ::_exit(7); });
  EXPECT_FALSE(run.ran);
  EXPECT_EQ(run.failure, "the unprivileged child exited with 7: ");
}

}  // namespace
}  // namespace gs
