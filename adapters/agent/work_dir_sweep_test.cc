#include "adapters/agent/work_dir_sweep.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/support/temp_dir.h"
#include "tests/support/test_files.h"

namespace gs {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class SweepWorkDirTest : public ::testing::Test {
 protected:
  SweepWorkDirTest() : root_(fs::canonical(dir_.path()).string()) {
    for (const char* d :
         {"data", "jobs/17", "jobs/.idle.99.1", "bin", "logs", "failed/17"}) {
      fs::create_directories(root_ + "/" + d);
    }
    WriteText(root_ + "/data/3-C.dat", "kept");
    WriteText(root_ + "/data/4-C.dat", "dropped copy");
    WriteText(root_ + "/data/5-A.dat.gsrt-part-123-1", "half");
    WriteText(root_ + "/jobs/17/out.dat", "partial");
    WriteText(root_ + "/bin/gsrt-agent", "program");
    WriteText(root_ + "/logs/agent.log", "log");
    WriteText(root_ + "/failed/17/stderr", "evidence");
  }
  TempDir dir_;
  std::string root_;
};

TEST_F(SweepWorkDirTest, RemovesWhatNoAgentUsesAndKeepsTheRest) {
  auto counts = SweepWorkDir(root_, "master:/p/.gsrt", {"3-C.dat"});
  ASSERT_TRUE(counts.ok()) << counts.status().ToString();
  EXPECT_EQ(counts->data_entries, 2);
  EXPECT_EQ(counts->sandboxes, 2);
  EXPECT_TRUE(counts->failures.empty());
  EXPECT_EQ(ReadAll(root_ + "/data/3-C.dat"), "kept");
  EXPECT_FALSE(fs::exists(root_ + "/data/4-C.dat"));
  EXPECT_FALSE(fs::exists(root_ + "/data/5-A.dat.gsrt-part-123-1"));
  EXPECT_FALSE(fs::exists(root_ + "/jobs/17"));
  EXPECT_FALSE(fs::exists(root_ + "/jobs/.idle.99.1"));
  // The rest is not swept.
  EXPECT_TRUE(fs::exists(root_ + "/bin/gsrt-agent"));
  EXPECT_TRUE(fs::exists(root_ + "/logs/agent.log"));
  EXPECT_TRUE(fs::exists(root_ + "/failed/17/stderr"));
  EXPECT_EQ(ReadAll(root_ + "/owner"), "master:/p/.gsrt\n");
}

TEST_F(SweepWorkDirTest, TheSameOwnerSweepsAgain) {
  ASSERT_TRUE(SweepWorkDir(root_, "m:/p", {}).ok());
  WriteText(root_ + "/data/9-x", "left by a lost host");
  auto again = SweepWorkDir(root_, "m:/p", {});
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(again->data_entries, 1);
  EXPECT_FALSE(fs::exists(root_ + "/data/9-x"));
}

TEST_F(SweepWorkDirTest, AnotherMastersWorkDirIsLeftAlone) {
  WriteText(root_ + "/owner", "other:/q/.gsrt\n");
  auto counts = SweepWorkDir(root_, "master:/p/.gsrt", {});
  ASSERT_FALSE(counts.ok());
  EXPECT_EQ(counts.status().code(), Status::Code::kFailedPrecondition);
  EXPECT_THAT(counts.status().message(), HasSubstr("other:/q/.gsrt"));
  EXPECT_THAT(counts.status().message(), HasSubstr("workdir"));
  EXPECT_TRUE(fs::exists(root_ + "/data/4-C.dat"));
  EXPECT_TRUE(fs::exists(root_ + "/jobs/17/out.dat"));
  EXPECT_EQ(ReadAll(root_ + "/owner"), "other:/q/.gsrt\n");
}

TEST_F(SweepWorkDirTest, SymlinksAreRemovedNotFollowed) {
  TempDir outside;
  WriteText(outside.path() + "/precious", "mine");
  fs::create_directory_symlink(outside.path(), root_ + "/jobs/18");
  fs::create_symlink(outside.path() + "/precious", root_ + "/data/6-link");
  ASSERT_TRUE(SweepWorkDir(root_, "m:/p", {}).ok());
  EXPECT_FALSE(fs::exists(fs::symlink_status(root_ + "/jobs/18")));
  EXPECT_FALSE(fs::exists(fs::symlink_status(root_ + "/data/6-link")));
  EXPECT_EQ(ReadAll(outside.path() + "/precious"), "mine");
}

TEST_F(SweepWorkDirTest, AFreshWorkDirIsFine) {
  TempDir fresh;
  auto counts = SweepWorkDir(fresh.path(), "m:/p", {});
  ASSERT_TRUE(counts.ok()) << counts.status().ToString();
  EXPECT_EQ(counts->data_entries + counts->sandboxes, 0);
  EXPECT_TRUE(counts->failures.empty());
}

TEST_F(SweepWorkDirTest, AnOwnerMustBeNamed) {
  EXPECT_EQ(SweepWorkDir(root_, "", {}).status().code(),
            Status::Code::kInvalidArgument);
  EXPECT_TRUE(fs::exists(root_ + "/data/4-C.dat"));
}

}  // namespace
}  // namespace gs
