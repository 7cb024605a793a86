#include "adapters/local/failure_evidence.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "tests/support/temp_dir.h"
#include "tests/support/test_files.h"

namespace gs {
namespace {

TEST(FailureEvidenceTest, SessionNamesTheUtcTimeAndThePid) {
  EXPECT_EQ(EvidenceSession(1795549985, 42), "20261124-195305-42");
  EXPECT_EQ(EvidenceSession(0, 7), "19700101-000000-7");
}

TEST(FailureEvidenceTest, NameKeepsOnlyPlainCharactersOfTheOperation) {
  EXPECT_EQ(EvidenceName(5, "count", 12), "task-5-count-job-12");
  EXPECT_EQ(EvidenceName(1, "../a b", 2), "task-1-.._a_b-job-2");
}

TEST(FailureEvidenceTest, KeepMovesTheSandboxAndNeverOverwrites) {
  TempDir dir;
  FailureEvidence evidence(RealFileSystem(), dir / "failed", "s1");
  for (const char* text : {"first", "second"}) {
    std::filesystem::create_directories(dir / "jobs/3");
    WriteText(dir / "jobs/3/stderr", text);
    auto kept = evidence.Keep(dir / "jobs/3", "task-3-op-job-3");
    ASSERT_TRUE(kept.ok()) << kept.status().ToString();
    EXPECT_EQ(ReadText(*kept + "/stderr"), text);
    EXPECT_FALSE(Exists(dir / "jobs/3"));
  }
  EXPECT_EQ(ReadText(dir / "failed/s1/task-3-op-job-3/stderr"), "first");
  EXPECT_EQ(ReadText(dir / "failed/s1/task-3-op-job-3.2/stderr"), "second");
}

}  // namespace
}  // namespace gs
