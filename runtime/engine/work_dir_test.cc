#include "runtime/engine/work_dir.h"

#include <gtest/gtest.h>

#include "runtime/base/messages.h"
#include "tests/support/mem_file_system.h"

namespace gs {
namespace {

class WorkDirTest : public ::testing::Test {
 protected:
  testing::MemFileSystem fs_;
  RecordingMessages messages_;
};

TEST_F(WorkDirTest, PrepareLocksMakesTheDataFolderAndKeepsOthersOut) {
  WorkDir dir("/home/u/run/.gsrt", fs_, messages_);
  ASSERT_TRUE(dir.Prepare().ok());
  EXPECT_TRUE(fs_.Examine("/home/u/run/.gsrt/data")->directory);
  EXPECT_TRUE(fs_.IsPrivate("/home/u/run/.gsrt"));
}

TEST_F(WorkDirTest, ASecondMasterOfTheSameDirectoryIsRefused) {
  WorkDir first("/run/.gsrt", fs_, messages_);
  ASSERT_TRUE(first.Prepare().ok());
  WorkDir second("/run/.gsrt", fs_, messages_);
  Status s = second.Prepare();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("/run/.gsrt"), std::string::npos) << s.message();
}

TEST_F(WorkDirTest, CleanUpRemovesDataAndSandboxesAndRecordsTheLastJob) {
  WorkDir dir("/run/.gsrt", fs_, messages_);
  ASSERT_TRUE(dir.Prepare().ok());
  dir.job_numbers().Choose(0);
  EXPECT_EQ(dir.job_numbers().Next(), 1u);
  EXPECT_EQ(dir.job_numbers().Next(), 2u);
  fs_.Put("/run/.gsrt/data/v1", "x");
  fs_.Put("/run/.gsrt/jobs/7/out", "y");
  dir.CleanUp();
  EXPECT_FALSE(fs_.Examine("/run/.gsrt/data").ok());
  EXPECT_FALSE(fs_.Examine("/run/.gsrt/jobs").ok());
  std::string last;
  ASSERT_TRUE(
      fs_.Read(dir.job_numbers().path(), [&](std::string_view c) { last += c; })
          .ok());
  EXPECT_EQ(last.substr(0, 1), "2") << last;
}

}  // namespace
}  // namespace gs
