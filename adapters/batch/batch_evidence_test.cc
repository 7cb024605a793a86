#include "adapters/batch/batch_evidence.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>

#include "tests/support/temp_dir.h"
#include "tests/support/test_files.h"

namespace gs {
namespace {

TEST(KeepBatchOutputTest, TheOutputMovesToFailed) {
  TempDir dir;
  std::filesystem::create_directories(dir.path() + "/batch-1-ab/a0");
  WriteText(dir.path() + "/batch-1-ab/a0/out.3", "slurmstepd: CANCELLED\n");
  const std::string said = KeepBatchOutput(
      dir.path(), dir.path() + "/batch-1-ab/a0/out.3", "batch-1-ab-77_3.out");
  const std::string kept = dir.path() + "/failed/batch/batch-1-ab-77_3.out";
  EXPECT_EQ(said, "its output: " + kept);
  EXPECT_EQ(ReadAll(kept), "slurmstepd: CANCELLED\n");
  EXPECT_FALSE(Exists(dir.path() + "/batch-1-ab/a0/out.3"));
  struct stat st {};
  ASSERT_EQ(::stat((dir.path() + "/failed").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 077, 0u);
}

TEST(KeepBatchOutputTest, NoOutputIsSaid) {
  TempDir dir;
  EXPECT_EQ(KeepBatchOutput(dir.path(), dir.path() + "/none", "x.out"),
            "it wrote no output");
  EXPECT_FALSE(Exists(dir.path() + "/failed/batch/x.out"));
}

TEST(KeepBatchOutputTest, AnOutputThatCannotMoveStaysAndIsNamed) {
  TempDir dir;
  WriteText(dir.path() + "/out", "why");
  WriteText(dir.path() + "/failed", "a file where the directory goes");
  const std::string said =
      KeepBatchOutput(dir.path(), dir.path() + "/out", "p.out");
  EXPECT_NE(said.find(dir.path() + "/out (not kept: "), std::string::npos)
      << said;
  EXPECT_EQ(ReadAll(dir.path() + "/out"), "why");
}

}  // namespace
}  // namespace gs
