// History: records round-trip, queries, sharing the file with another
// connection, batching, and the cost of RecordJob.
#include "runtime/history/history.h"

#include <gtest/gtest.h>

#include <chrono>
#include <latch>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "runtime/history/history_test_util.h"
#include "runtime/history/sqlite_db.h"

namespace gs {
namespace {

using gs::testing::TempDir;
using Clock = std::chrono::steady_clock;

class HistoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.ok());
    path_ = dir_.File("history.db");
    history_ = OpenHistory(HistoryOptions());
    ASSERT_NE(history_, nullptr);
    auto run = history_->BeginRun("matmul", "/home/u/mm", 3, 1000.0);
    ASSERT_TRUE(run.ok()) << run.status().ToString();
    run_ = *run;
  }

  std::unique_ptr<History> OpenHistory(const HistoryOptions& options) {
    auto history = History::Open(path_, options);
    EXPECT_TRUE(history.ok()) << history.status().ToString();
    return history.ok() ? std::move(history).value() : nullptr;
  }

  // A second connection, as another process (gsdeploy) would have.
  std::unique_ptr<SqliteDb> OtherConnection() {
    auto db = SqliteDb::Open(path_, SqliteDb::Mode::kReadWrite, 5000);
    EXPECT_TRUE(db.ok());
    return std::move(db).value();
  }

  int64_t Count(SqliteDb& db, const std::string& table) {
    return db.QueryInt("SELECT count(*) FROM " + table).value();
  }

  JobRecord OkJob(JobId id, std::string op, std::string host, double start,
                  double seconds) {
    JobRecord j;
    j.run = run_;
    j.task = static_cast<TaskId>(id);
    j.job = id;
    j.operation = std::move(op);
    j.host = std::move(host);
    j.submitted = start - 0.5;
    j.started = start;
    j.ended = start + seconds;
    j.outcome = OutcomeClass::kOk;
    j.exit_code = 0;
    return j;
  }

  TempDir dir_;
  std::string path_;
  std::unique_ptr<History> history_;
  RunId run_ = 0;
};

TEST_F(HistoryTest, JobsRoundTrip) {
  JobRecord ok = OkJob(1, "multiply", "node1", 1001.25, 2.5);
  ok.bytes_in = 1 << 20;
  ok.bytes_out = 4096;
  ok.usage = {2.25, 0.125, 51200};
  ok.log_dir = "/tmp/logs/1";
  JobRecord app = OkJob(2, "multiply", "node2", 1002.0, 1.0);
  app.outcome = OutcomeClass::kApp;
  app.exit_code = 3;
  app.error = "exit code 3";
  JobRecord infra;
  infra.run = run_;
  infra.task = 3;
  infra.job = 3;
  infra.operation = "add";
  infra.host = "node3";
  infra.submitted = 1003.0;  // never started: started/ended unknown
  infra.outcome = OutcomeClass::kInfra;
  infra.error = "connection reset by peer";
  infra.replica = true;
  for (const JobRecord* j : {&ok, &app, &infra}) {
    ASSERT_TRUE(history_->RecordJob(*j).ok());
  }

  auto jobs = history_->JobsForRun(run_);
  ASSERT_TRUE(jobs.ok());
  ASSERT_EQ(jobs->size(), 3u);
  const JobRecord& a = (*jobs)[0];
  EXPECT_EQ(a.operation, "multiply");
  EXPECT_EQ(a.host, "node1");
  EXPECT_DOUBLE_EQ(a.started, 1001.25);
  EXPECT_DOUBLE_EQ(a.ended, 1003.75);
  EXPECT_EQ(a.outcome, OutcomeClass::kOk);
  EXPECT_EQ(a.exit_code, 0);
  EXPECT_EQ(a.bytes_in, 1u << 20);
  EXPECT_EQ(a.bytes_out, 4096u);
  EXPECT_DOUBLE_EQ(a.usage.user_cpu, 2.25);
  EXPECT_DOUBLE_EQ(a.usage.system_cpu, 0.125);
  EXPECT_EQ(a.usage.max_rss_kb, 51200);
  EXPECT_EQ(a.log_dir, "/tmp/logs/1");
  EXPECT_FALSE(a.replica);
  EXPECT_EQ((*jobs)[1].outcome, OutcomeClass::kApp);
  EXPECT_EQ((*jobs)[1].exit_code, 3);
  EXPECT_EQ((*jobs)[1].error, "exit code 3");
  const JobRecord& c = (*jobs)[2];
  EXPECT_EQ(c.outcome, OutcomeClass::kInfra);
  EXPECT_FALSE(c.exit_code.has_value());
  EXPECT_EQ(c.started, 0);
  EXPECT_EQ(c.ended, 0);
  EXPECT_TRUE(c.replica);
  EXPECT_EQ(c.error, "connection reset by peer");

  // Unknown times are NULL in the file, not 0.
  auto db = OtherConnection();
  EXPECT_EQ(
      db->QueryInt("SELECT count(*) FROM jobs WHERE started IS NULL").value(),
      1);
}

TEST_F(HistoryTest, RunsBeginAndEnd) {
  ASSERT_TRUE(history_->EndRun(run_, RunStatus::kFailed, 1500.0).ok());
  auto db = OtherConnection();
  EXPECT_EQ(db->QueryText("SELECT program || '|' || cwd || '|' || "
                          "host_count || '|' || status || '|' || ended "
                          "FROM runs")
                .value(),
            "matmul|/home/u/mm|3|failed|1500.0");
  Status missing = history_->EndRun(run_ + 100, RunStatus::kOk, 1.0);
  EXPECT_EQ(missing.code(), Status::Code::kNotFound);
}

TEST_F(HistoryTest, LargestJobIdSpansRuns) {
  EXPECT_EQ(history_->LargestJobId().value(), 0);  // no job yet
  // Recorded out of order, and a later run with smaller numbers.
  ASSERT_TRUE(history_->RecordJob(OkJob(9000000000000, "op", "h", 1, 1)).ok());
  ASSERT_TRUE(history_->RecordJob(OkJob(7, "op", "h", 2, 1)).ok());
  auto later = history_->BeginRun("matmul", "/home/u/mm", 1, 1100.0);
  ASSERT_TRUE(later.ok());
  JobRecord small = OkJob(3, "op", "h", 3, 1);
  small.run = *later;
  ASSERT_TRUE(history_->RecordJob(small).ok());
  EXPECT_EQ(history_->LargestJobId().value(), 9000000000000);
}

TEST_F(HistoryTest, JobOfUnknownRunIsRejected) {
  JobRecord j = OkJob(1, "op", "h", 1.0, 1.0);
  j.run = run_ + 7;
  EXPECT_FALSE(history_->RecordJob(j).ok());
}

TEST_F(HistoryTest, HostsAreUpserted) {
  ASSERT_TRUE(history_->RecordHost({"n1", "ssh", "10.0.0.1"}).ok());
  ASSERT_TRUE(history_->RecordHost({"n1", "slurm", "login1"}).ok());
  auto db = OtherConnection();
  EXPECT_EQ(db->QueryText("SELECT adapter || ' ' || address FROM hosts "
                          "WHERE name = 'n1'")
                .value(),
            "slurm login1");
  EXPECT_EQ(Count(*db, "hosts"), 1);
}

TEST_F(HistoryTest, ExecTimesAreNewestFirstSuccessOnlyAndLimited) {
  for (int i = 0; i < 25; ++i) {
    // Durations 1..25 s in recording order; the newest is 25 s.
    ASSERT_TRUE(
        history_
            ->RecordJob(OkJob(i + 1, "mul", "h1", 2000.0 + 100 * i, i + 1.0))
            .ok());
  }
  JobRecord failed = OkJob(100, "mul", "h1", 9000.0, 999.0);
  failed.outcome = OutcomeClass::kApp;
  failed.exit_code = 1;
  ASSERT_TRUE(history_->RecordJob(failed).ok());
  ASSERT_TRUE(history_->RecordJob(OkJob(101, "mul", "h2", 50.0, 7.0)).ok());
  ASSERT_TRUE(history_->RecordJob(OkJob(102, "add", "h1", 50.0, 0.5)).ok());

  auto samples = history_->LoadExecTimes(20);
  ASSERT_TRUE(samples.ok()) << samples.status().ToString();
  ASSERT_EQ(samples->size(), 22u);
  EXPECT_EQ((*samples)[0].operation, "add");
  EXPECT_DOUBLE_EQ((*samples)[0].seconds, 0.5);
  for (int k = 0; k < 20; ++k) {
    const ExecTimeSample& s = (*samples)[1 + k];
    EXPECT_EQ(s.operation, "mul");
    EXPECT_EQ(s.host, "h1");
    EXPECT_DOUBLE_EQ(s.seconds, 25.0 - k);
  }
  EXPECT_EQ((*samples)[21].host, "h2");
  EXPECT_DOUBLE_EQ((*samples)[21].seconds, 7.0);
}

TEST_F(HistoryTest, JobSuccessCountsEndedJobsPerHost) {
  ASSERT_TRUE(history_->RecordJob(OkJob(1, "op", "h1", 1.0, 1.0)).ok());
  ASSERT_TRUE(history_->RecordJob(OkJob(2, "op", "h1", 2.0, 1.0)).ok());
  JobRecord lost = OkJob(3, "op", "h1", 3.0, 1.0);
  lost.outcome = OutcomeClass::kInfra;
  ASSERT_TRUE(history_->RecordJob(lost).ok());
  JobRecord cancelled = OkJob(4, "op", "h1", 4.0, 1.0);
  cancelled.outcome = OutcomeClass::kCancelled;  // a losing replica
  ASSERT_TRUE(history_->RecordJob(cancelled).ok());
  ASSERT_TRUE(history_->RecordJob(OkJob(5, "op", "h2", 5.0, 1.0)).ok());
  auto h1 = history_->LoadJobSuccess("h1");
  ASSERT_TRUE(h1.ok()) << h1.status().ToString();
  EXPECT_EQ(h1->first, 2);
  EXPECT_EQ(h1->second, 3);
  auto none = history_->LoadJobSuccess("nobody");
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->second, 0);
}

TEST_F(HistoryTest, HostReliabilityCountsChecksAndFailures) {
  for (int i = 0; i < 10; ++i) {
    HostCheck check{"n1", 10.0 + i, /*answered=*/i % 4 != 0, std::nullopt,
                    i % 2 ? CheckSource::kProbe : CheckSource::kRuntime};
    if (check.answered) check.rtt = 0.002;
    ASSERT_TRUE(history_->RecordHostCheck(check).ok());
  }
  ASSERT_TRUE(history_
                  ->RecordHostFailure(
                      {"n1", 30.0, "connection_lost", "ssh: reset", run_, 5})
                  .ok());
  ASSERT_TRUE(
      history_->RecordHostFailure({"n1", 31.0, "host_down", "", 0, 0}).ok());
  ASSERT_TRUE(
      history_->RecordHostFailure({"n2", 32.0, "network", "", 0, 0}).ok());

  auto n1 = history_->LoadHostReliability("n1");
  ASSERT_TRUE(n1.ok());
  EXPECT_EQ(n1->attempts, 10);
  EXPECT_EQ(n1->not_answered, 3);  // i = 0, 4, 8
  EXPECT_EQ(n1->distrust, 2);
  auto unknown = history_->LoadHostReliability("never-seen");
  ASSERT_TRUE(unknown.ok());
  EXPECT_EQ(unknown->attempts + unknown->not_answered + unknown->distrust, 0);

  auto all = history_->LoadAllHostReliability();
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ((*all)[0].host, "n1");
  EXPECT_EQ((*all)[0].attempts, 10);
  EXPECT_EQ((*all)[0].not_answered, 3);
  EXPECT_EQ((*all)[0].distrust, 2);
  EXPECT_EQ((*all)[1].host, "n2");
  EXPECT_EQ((*all)[1].attempts, 0);
  EXPECT_EQ((*all)[1].distrust, 1);
}

// A history written before checks were paced: GS_Off's retries of a lost
// host, 17 unanswered rows in 4 s after 8 answered checks, read as one
// outage (availability 8/9, not 8/25).
TEST_F(HistoryTest, ABurstOfUnansweredChecksReadsAsOne) {
  for (int i = 0; i < 8; ++i) {
    ASSERT_TRUE(history_
                    ->RecordHostCheck(
                        {"n2", 100.0 * i, true, 0.001, CheckSource::kRuntime})
                    .ok());
  }
  for (int i = 0; i < 17; ++i) {
    ASSERT_TRUE(history_
                    ->RecordHostCheck({"n2", 1000 + 0.25 * i, false,
                                       std::nullopt, CheckSource::kRuntime})
                    .ok());
  }
  auto n2 = history_->LoadHostReliability("n2");
  ASSERT_TRUE(n2.ok());
  EXPECT_EQ(n2->attempts, 9);
  EXPECT_EQ(n2->not_answered, 1);
  auto all = history_->LoadAllHostReliability();
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 1u);
  EXPECT_EQ((*all)[0].attempts, 9);
  EXPECT_EQ((*all)[0].not_answered, 1);
}

TEST_F(HistoryTest, BusyWaitIsBoundedByTheTimeout) {
  HistoryOptions options;
  options.busy_timeout_ms = 200;
  auto impatient = OpenHistory(options);
  ASSERT_NE(impatient, nullptr);
  auto other = OtherConnection();
  ASSERT_TRUE(other->Exec("BEGIN IMMEDIATE").ok());

  auto start = Clock::now();
  Status s = impatient->RecordJob(OkJob(1, "op", "h", 1.0, 1.0));
  auto waited = Clock::now() - start;
  EXPECT_EQ(s.code(), Status::Code::kUnavailable) << s.ToString();
  EXPECT_NE(s.message().find(path_), std::string::npos);
  EXPECT_GE(waited, std::chrono::milliseconds(150));
  EXPECT_LT(waited, std::chrono::seconds(5));

  ASSERT_TRUE(other->Exec("COMMIT").ok());
  EXPECT_TRUE(impatient->RecordJob(OkJob(1, "op", "h", 1.0, 1.0)).ok());
}

TEST_F(HistoryTest, WriterWaitsForAnotherConnectionsLock) {
  auto other = OtherConnection();
  ASSERT_TRUE(other->Exec("BEGIN IMMEDIATE").ok());
  ASSERT_TRUE(
      other->Exec("INSERT INTO hosts (name, adapter) VALUES ('x', 'ssh')")
          .ok());
  std::latch writer_started(1);
  Status written = Status::Internal("not run");
  std::thread writer([&] {
    writer_started.count_down();
    // Blocks in SQLite's busy handler (up to 5 s) until the COMMIT below.
    written = history_->RecordJob(OkJob(1, "op", "h", 1.0, 1.0));
  });
  writer_started.wait();
  ASSERT_TRUE(other->Exec("COMMIT").ok());
  writer.join();
  EXPECT_TRUE(written.ok()) << written.ToString();
  EXPECT_EQ(Count(*other, "jobs"), 1);
  EXPECT_EQ(Count(*other, "hosts"), 1);
}

TEST_F(HistoryTest, TwoHistoriesWriteConcurrently) {
  constexpr int kEach = 300;
  auto second = OpenHistory(HistoryOptions());
  ASSERT_NE(second, nullptr);
  int failures = 0;
  std::thread prober([&] {
    for (int i = 0; i < kEach; ++i) {
      HostCheck check{"n" + std::to_string(i % 5), 1.0 * i, true, 0.001,
                      CheckSource::kProbe};
      if (!second->RecordHostCheck(check).ok()) ++failures;
    }
  });
  int runtime_failures = 0;
  for (int i = 0; i < kEach; ++i) {
    if (!history_->RecordJob(OkJob(i + 1, "op", "h", 1.0 * i, 1.0)).ok()) {
      ++runtime_failures;
    }
  }
  prober.join();
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(runtime_failures, 0);
  auto db = OtherConnection();
  EXPECT_EQ(Count(*db, "jobs"), kEach);
  EXPECT_EQ(Count(*db, "host_checks"), kEach);
}

TEST_F(HistoryTest, BatchCommitsEveryNRecordsAndOnFlush) {
  HistoryOptions options;
  options.batch_size = 4;
  auto batched = OpenHistory(options);
  ASSERT_NE(batched, nullptr);
  auto reader = OtherConnection();
  for (int i = 1; i <= 3; ++i) {
    ASSERT_TRUE(batched->RecordJob(OkJob(i, "op", "h", i, 1.0)).ok());
  }
  EXPECT_EQ(batched->pending(), 3);
  EXPECT_EQ(Count(*reader, "jobs"), 0);  // not committed yet
  ASSERT_TRUE(batched->RecordJob(OkJob(4, "op", "h", 4, 1.0)).ok());
  EXPECT_EQ(batched->pending(), 0);
  EXPECT_EQ(Count(*reader, "jobs"), 4);
  ASSERT_TRUE(batched->RecordJob(OkJob(5, "op", "h", 5, 1.0)).ok());
  ASSERT_TRUE(batched->Flush().ok());
  EXPECT_EQ(Count(*reader, "jobs"), 5);
  ASSERT_TRUE(batched->RecordJob(OkJob(6, "op", "h", 6, 1.0)).ok());
  batched.reset();  // the destructor commits
  EXPECT_EQ(Count(*reader, "jobs"), 6);
}

}  // namespace
}  // namespace gs
