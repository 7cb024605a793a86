#include "adapters/batch/node/batch_job_runner.h"

#include <gtest/gtest.h>

#include <string>

#include "adapters/batch/node/batch_claim.h"
#include "tests/support/temp_dir.h"

namespace gs {
namespace {

// What a batch job says goes to the sink it is given (the agent passes
// its stderr, which the queue keeps as the job's output).

TEST(RunBatchJobTest, AnElementVoidedByTheMasterIsNotRun) {
  ASSERT_EQ(BatchArrayIndex(), 0) << "run outside a batch array job";
  TempDir dir;
  ASSERT_TRUE(ClaimBatchElement(dir.path(), 0, kVoidClaim).ok());
  RecordingMessages said;
  EXPECT_EQ(RunBatchJob(dir.path(), dir / "work", said), 0);
  EXPECT_TRUE(said.Has(MessageKind::kInfo,
                       "gsrt-agent --batch-job: element 0 of " + dir.path() +
                           " was voided by the master started again after a "
                           "crash (it runs the task as a new job): not "
                           "running it\n"))
      << said.AllText();
  EXPECT_FALSE(ReadSmallFile(BatchRecordPath(dir.path(), 0)).ok());
}

TEST(RunBatchJobTest, AnElementClaimedByAnotherJobRunsOnce) {
  TempDir dir;
  ASSERT_TRUE(ClaimBatchElement(dir.path(), 0, "41_0").ok());
  RecordingMessages said;
  EXPECT_EQ(RunBatchJob(dir.path(), dir / "work", said), 1);
  EXPECT_TRUE(said.Has(MessageKind::kWarning,
                       "is run by batch job 41_0 already: not running it "
                       "twice\n"))
      << said.AllText();
}

TEST(RunBatchJobTest, AMissingSpecIsAnError) {
  TempDir dir;
  RecordingMessages said;
  EXPECT_EQ(RunBatchJob(dir.path(), dir / "work", said), 1);
  ASSERT_EQ(said.messages().size(), 1u) << said.AllText();
  EXPECT_EQ(said.messages()[0].kind, MessageKind::kError);
  EXPECT_TRUE(said.Has(MessageKind::kError, "gsrt-agent --batch-job: "));
  EXPECT_TRUE(said.Has(MessageKind::kError, "spec.0")) << said.AllText();
}

}  // namespace
}  // namespace gs
