// The task journal in the history: entries round-trip, and a new run finds
// the interrupted runs it may resume.
#include <gtest/gtest.h>

#include "runtime/history/history.h"
#include "runtime/history/history_test_util.h"

namespace gs {
namespace {

class HistoryJournalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.ok());
    HistoryOptions options;
    options.batch_size = 64;  // as the engine: entries go in batches
    auto h = History::Open(dir_.File("history.db"), options);
    ASSERT_TRUE(h.ok()) << h.status().message();
    history_ = std::move(h).value();
  }
  RunId Begin(std::string_view program = "/bin/app",
              std::string_view cwd = "/w") {
    auto run = history_->BeginRun(program, cwd, 1, ++now_);
    EXPECT_TRUE(run.ok());
    return *run;
  }

  testing::TempDir dir_;
  std::unique_ptr<History> history_;
  Seconds now_ = 1000;
};

TEST_F(HistoryJournalTest, QueuedBatchJobsRoundTrip) {
  RunId first = Begin();
  RunId second = Begin();
  QueuedJobEntry job;
  job.run = first;
  job.host = "cluster";
  job.job.job = 12;
  job.job.task = 3;
  job.job.batch_id = "345_2";
  job.job.name = "gsrt-cluster-abcd";
  job.job.dir = "/w/.gsrt/hosts/cluster/batch-9-abcd/b0";
  job.job.index = 2;
  job.signature = "0123456789abcdef0123456789abcdef";
  job.outputs = {"7-c.txt", "8-d.txt"};
  QueuedJobEntry pilot;
  pilot.run = first;
  pilot.host = "cluster";
  pilot.job.batch_id = "340";
  QueuedJobEntry taken = job;
  taken.run = second;
  taken.job.job = 1040;
  taken.job.adopted = true;
  ASSERT_TRUE(history_->RecordQueuedJob(job).ok());
  ASSERT_TRUE(history_->RecordQueuedJob(pilot).ok());
  ASSERT_TRUE(history_->RecordQueuedJob(taken).ok());
  ASSERT_TRUE(history_->Flush().ok());
  auto got = history_->LoadQueuedJobs(first);
  ASSERT_TRUE(got.ok()) << got.status().message();
  ASSERT_EQ(got->size(), 2u);
  const QueuedJobEntry& p = (*got)[1];  // job number 0 sorts last
  EXPECT_EQ(p.job.batch_id, "340");
  EXPECT_TRUE(p.signature.empty());
  EXPECT_TRUE(p.outputs.empty());
  const QueuedJobEntry& j = (*got)[0];
  EXPECT_EQ(j.run, first);
  EXPECT_EQ(j.host, "cluster");
  EXPECT_EQ(j.job.job, 12u);
  EXPECT_EQ(j.job.task, 3u);
  EXPECT_EQ(j.job.batch_id, "345_2");
  EXPECT_EQ(j.job.name, "gsrt-cluster-abcd");
  EXPECT_EQ(j.job.dir, job.job.dir);
  EXPECT_EQ(j.job.index, 2);
  EXPECT_EQ(j.signature, job.signature);
  EXPECT_EQ(j.outputs, job.outputs);
  EXPECT_FALSE(j.job.adopted);
  auto later = history_->LoadQueuedJobs(second);
  ASSERT_TRUE(later.ok());
  ASSERT_EQ(later->size(), 1u);
  EXPECT_TRUE((*later)[0].job.adopted);
  EXPECT_EQ(QueuedJobKey((*later)[0].signature, (*later)[0].outputs),
            QueuedJobKey(j.signature, j.outputs));
  EXPECT_NE(QueuedJobKey(j.signature, {"7-c.txt"}),
            QueuedJobKey(j.signature, j.outputs));
}

// Jobs a pilot runs share its batch id: each keeps a row of its own, read
// back as run by that pilot, beside the pilot's own row.
TEST_F(HistoryJournalTest, JobsInsideAPilotKeepARowEach) {
  RunId run = Begin();
  QueuedJobEntry pilot;
  pilot.run = run;
  pilot.host = "cluster";
  pilot.job.batch_id = "340";
  ASSERT_TRUE(history_->RecordQueuedJob(pilot).ok());
  for (JobId id : {21, 22}) {
    QueuedJobEntry job;
    job.run = run;
    job.host = "cluster";
    job.job.job = id;
    job.job.task = static_cast<TaskId>(id - 20);
    job.job.batch_id = "340";
    job.job.in_pilot = true;
    job.signature = "sig" + std::to_string(id);
    ASSERT_TRUE(history_->RecordQueuedJob(job).ok());
  }
  ASSERT_TRUE(history_->Flush().ok());
  auto got = history_->LoadQueuedJobs(run);
  ASSERT_TRUE(got.ok()) << got.status().message();
  ASSERT_EQ(got->size(), 3u);
  EXPECT_EQ((*got)[0].job.job, 22u);  // newest job first
  EXPECT_EQ((*got)[1].job.job, 21u);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ((*got)[i].job.batch_id, "340");
    EXPECT_TRUE((*got)[i].job.in_pilot);
  }
  EXPECT_EQ((*got)[2].job.job, 0u);  // the pilot itself
  EXPECT_EQ((*got)[2].job.batch_id, "340");
  EXPECT_FALSE((*got)[2].job.in_pilot);
}

// A job is recorded while being submitted (no batch id yet), then with its
// id; a task retried as a later job comes first, so a resumed run takes
// over its newest job.
TEST_F(HistoryJournalTest, QueuedJobsKeepEachJobsLatestSubmission) {
  RunId run = Begin();
  QueuedJobEntry submitting;
  submitting.run = run;
  submitting.host = "cluster";
  submitting.job.job = 12;
  submitting.job.dir = "/w/b0";
  submitting.job.index = 1;
  QueuedJobEntry other = submitting;  // another element, still submitting
  other.job.job = 13;
  other.job.index = 2;
  ASSERT_TRUE(history_->RecordQueuedJob(submitting).ok());
  ASSERT_TRUE(history_->RecordQueuedJob(other).ok());
  ASSERT_TRUE(history_->Flush().ok());
  auto got = history_->LoadQueuedJobs(run);
  ASSERT_TRUE(got.ok()) << got.status().message();
  ASSERT_EQ(got->size(), 2u);
  EXPECT_EQ((*got)[0].job.job, 13u);
  EXPECT_EQ((*got)[0].job.batch_id, "");  // not the column's placeholder
  EXPECT_EQ((*got)[0].job.index, 2);
  EXPECT_EQ((*got)[1].job.batch_id, "");
  EXPECT_EQ((*got)[1].job.dir, "/w/b0");

  QueuedJobEntry queued = submitting;
  queued.job.batch_id = "345_1";
  ASSERT_TRUE(history_->RecordQueuedJob(queued).ok());
  QueuedJobEntry again = queued;  // lost by the queue, submitted again
  again.job.batch_id = "350";
  again.job.dir = "/w/b1";
  again.job.index = 0;
  ASSERT_TRUE(history_->RecordQueuedJob(again).ok());
  QueuedJobEntry retry = queued;  // the task's next job
  retry.job.job = 20;
  retry.job.batch_id = "351";
  ASSERT_TRUE(history_->RecordQueuedJob(retry).ok());
  ASSERT_TRUE(history_->Flush().ok());
  got = history_->LoadQueuedJobs(run);
  ASSERT_TRUE(got.ok());
  ASSERT_EQ(got->size(), 3u);
  EXPECT_EQ((*got)[0].job.batch_id, "351");
  EXPECT_EQ((*got)[1].job.batch_id, "");  // job 13, still submitting
  EXPECT_EQ((*got)[2].job.batch_id, "350");
  EXPECT_EQ((*got)[2].job.dir, "/w/b1");

  // A job taken over, then lost by the queue and submitted again: the
  // take-over stays on record, after the submission.
  QueuedJobEntry taken = submitting;
  taken.job.job = 30;
  taken.job.batch_id = "300_4";
  taken.job.adopted = true;
  ASSERT_TRUE(history_->RecordQueuedJob(taken).ok());
  QueuedJobEntry rerun = taken;
  rerun.job.batch_id = "";
  rerun.job.adopted = false;
  rerun.job.dir = "/w/b9";
  ASSERT_TRUE(history_->RecordQueuedJob(rerun).ok());
  ASSERT_TRUE(history_->Flush().ok());
  got = history_->LoadQueuedJobs(run);
  ASSERT_TRUE(got.ok());
  ASSERT_EQ(got->size(), 5u);
  EXPECT_EQ((*got)[0].job.dir, "/w/b9");
  EXPECT_FALSE((*got)[0].job.adopted);
  EXPECT_EQ((*got)[1].job.batch_id, "300_4");
  EXPECT_TRUE((*got)[1].job.adopted);
}

TEST_F(HistoryJournalTest, EntriesRoundTrip) {
  RunId run = Begin();
  JournalEntry e;
  e.run = run;
  e.task = 4;
  e.signature = "0123456789abcdef0123456789abcdef";
  e.operation = "multiply";
  e.host = "node1";
  e.finished = 1234.5;
  e.results = "0x1p+0\n";
  JournalOutput o;
  o.param = 1;
  o.file = "7-c.txt";
  o.host = "node1";
  o.size = 99;
  e.outputs.push_back(o);
  ASSERT_TRUE(history_->RecordTaskJournal(e).ok());
  // A task rewound after a host loss finishes again: one entry remains.
  e.host = "node2";
  ASSERT_TRUE(history_->RecordTaskJournal(e).ok());
  ASSERT_TRUE(history_->Flush().ok());
  auto entries = history_->LoadJournal(run);
  ASSERT_TRUE(entries.ok()) << entries.status().message();
  ASSERT_EQ(entries->size(), 1u);
  const JournalEntry& got = (*entries)[0];
  EXPECT_EQ(got.run, run);
  EXPECT_EQ(got.task, 4u);
  EXPECT_EQ(got.signature, e.signature);
  EXPECT_EQ(got.operation, "multiply");
  EXPECT_EQ(got.host, "node2");
  EXPECT_DOUBLE_EQ(got.finished, 1234.5);
  EXPECT_EQ(got.results, "0x1p+0\n");
  ASSERT_EQ(got.outputs.size(), 1u);
  EXPECT_EQ(got.outputs[0].file, "7-c.txt");
  EXPECT_EQ(got.outputs[0].size, 99);
}

TEST_F(HistoryJournalTest, InterruptedRunsBackToTheLastOneThatEnded) {
  RunId ended = Begin();
  ASSERT_TRUE(history_->EndRun(ended, RunStatus::kOk, ++now_).ok());
  RunId killed = Begin();                     // still "running": SIGKILLed
  RunId other = Begin("/bin/other");          // another program
  RunId elsewhere = Begin("/bin/app", "/x");  // another directory
  RunId interrupted = Begin();
  ASSERT_TRUE(
      history_->EndRun(interrupted, RunStatus::kCancelled, ++now_).ok());
  RunId current = Begin();
  auto runs = history_->FindInterruptedRuns("/bin/app", "/w", current);
  ASSERT_TRUE(runs.ok());
  EXPECT_EQ(*runs, (std::vector<RunId>{interrupted, killed}));
  (void)other;
  (void)elsewhere;
  // A run that failed (GS_Off ran, the data is gone) ends the chain.
  ASSERT_TRUE(history_->EndRun(current, RunStatus::kFailed, ++now_).ok());
  runs = history_->FindInterruptedRuns("/bin/app", "/w", Begin());
  ASSERT_TRUE(runs.ok());
  EXPECT_TRUE(runs->empty());
}

}  // namespace
}  // namespace gs
