// The run recorder alone: no engine, no thread. Observers are fakes that
// note what they hear; the history, which SQLite keeps in a file (History
// cannot open one in memory), lives in a temporary directory.
#include "runtime/engine/run_recorder.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "gs/gs_abi.h"
#include "runtime/history/history.h"
#include "tests/support/fake_clock.h"
#include "tests/support/temp_dir.h"

namespace gs {
namespace {

constexpr gs_param_desc kProduceParams[] = {
    {"out", GS_TYPE_FILE, GS_DIR_OUT, 0, 0}};
constexpr gs_operation kProduce = {
    "produce", GS_TYPE_VOID, 1, kProduceParams, 0, 0, 0, nullptr, 0};
constexpr gs_param_desc kJoinParams[] = {
    {"a", GS_TYPE_FILE, GS_DIR_IN, 0, 0},
    {"b", GS_TYPE_FILE, GS_DIR_IN, 0, 0},
    {"out", GS_TYPE_FILE, GS_DIR_OUT, 0, 0}};
constexpr gs_operation kJoin = {"join", GS_TYPE_VOID, 3, kJoinParams, 0, 0,
                                0,      nullptr,      0};

// Notes every call, one line each.
class NotingObserver : public RunObserver {
 public:
  void OnRunStarted(Seconds started,
                    const std::vector<std::string>& hosts) override {
    std::string line = "started " + std::to_string(int(started));
    for (const auto& h : hosts) line += " " + h;
    lines.push_back(line);
  }
  void OnTaskSubmitted(const TaskRecord& task) override {
    tasks.push_back(task);
  }
  void OnJobStarted(const JobStart& job) override { starts.push_back(job); }
  void OnJobEnded(const JobRecord& job) override { jobs.push_back(job); }
  void OnEvent(const RunEvent& event) override { events.push_back(event); }
  void OnTaskEnded(const TaskEnd& end) override { ends.push_back(end); }
  void OnRunEnded(Seconds ended, RunStatus status) override {
    lines.push_back("ended " + std::to_string(int(ended)) + " " +
                    std::string(RunStatusName(status)));
  }

  std::vector<std::string> lines;
  std::vector<TaskRecord> tasks;
  std::vector<JobStart> starts;
  std::vector<JobRecord> jobs;
  std::vector<RunEvent> events;
  std::vector<TaskEnd> ends;
};

JobReport ExitedReport(JobId id, int code, Seconds started, Seconds ended) {
  JobReport report;
  report.id = id;
  Exited exited;
  exited.code = code;
  if (code != 0) exited.error = "exit code " + std::to_string(code);
  report.outcome = exited;
  report.started = started;
  report.ended = ended;
  return report;
}

class RunRecorderTest : public ::testing::Test {
 protected:
  RunRecorderTest() : clock_(1000), recorder_(graph_, ops_, messages_) {
    recorder_.set_clock(&clock_);
    recorder_.AddHost("alpha", "local", true);
    recorder_.AddHost("beta", "ssh", false);
  }

  // produce(x), produce(y), join(x, y, z): the join depends on both.
  void SubmitThree() {
    const FileParam x[] = {{"x", false, true}};
    const FileParam y[] = {{"y", false, true}};
    const FileParam xyz[] = {
        {"x", true, false}, {"y", true, false}, {"z", false, true}};
    graph_.AddTask(ops_.Intern(&kProduce), x, 1, "");
    graph_.AddTask(ops_.Intern(&kProduce), y, 1, "");
    graph_.AddTask(ops_.Intern(&kJoin), xyz, 3, "");
  }

  void Observe() {
    recorder_.ReportRunStarted(&mu_, clock_.Now(), {observer_});
  }

  bool OpenHistory() {
    return recorder_.OpenHistory(dir_ / "history.db", "prog", "/w",
                                 clock_.Now());
  }

  // Writes what is pending, as the engine thread does.
  void WritePending() {
    RunRecorder::Pending pending;
    {
      MutexLock lock(&mu_);
      pending = recorder_.TakePending(mu_);
    }
    recorder_.Write(std::move(pending));
  }

  std::unique_ptr<History> Reopen() {
    auto history = History::Open(dir_ / "history.db");
    EXPECT_TRUE(history.ok()) << history.status().message();
    return history.ok() ? std::move(history).value() : nullptr;
  }

  TempDir dir_;
  FileTable files_{"/w"};
  TaskGraph graph_{&files_};
  OperationTable ops_;
  FakeClock clock_;
  RecordingMessages messages_;
  Mutex mu_;
  RunRecorder recorder_;
  std::shared_ptr<NotingObserver> observer_ =
      std::make_shared<NotingObserver>();
};

TEST_F(RunRecorderTest, UnwatchedWithoutHistoryOrObservers) {
  EXPECT_FALSE(recorder_.OpenHistory("", "prog", "/w", 0));
  recorder_.ReportRunStarted(&mu_, 0, {});
  EXPECT_FALSE(recorder_.watched());
  EXPECT_EQ(recorder_.history(), nullptr);
  EXPECT_EQ(recorder_.run_id(), 0);
  EXPECT_TRUE(messages_.messages().empty()) << messages_.AllText();
}

TEST_F(RunRecorderTest, KeepsTheConnectionChecksOfStart) {
  MutexLock lock(&mu_);
  RunRecorder::Pending pending = recorder_.TakePending(mu_);
  ASSERT_EQ(pending.checks.size(), 2u);
  EXPECT_EQ(pending.checks[0].host, "alpha");
  EXPECT_TRUE(pending.checks[0].answered);
  EXPECT_EQ(pending.checks[0].time, 1000);
  EXPECT_EQ(pending.checks[1].host, "beta");
  EXPECT_FALSE(pending.checks[1].answered);
  EXPECT_TRUE(recorder_.TakePending(mu_).checks.empty());
}

TEST_F(RunRecorderTest, ObserversHearTheRunStartAndEnd) {
  Observe();
  EXPECT_TRUE(recorder_.watched());
  clock_.SetNow(1042);
  recorder_.ReportRunEnded(&mu_, RunStatus::kFailed);
  EXPECT_EQ(observer_->lines,
            (std::vector<std::string>{"started 1000 alpha beta",
                                      "ended 1042 failed"}));
}

TEST_F(RunRecorderTest, SubmissionNamesTheTrueDependencies) {
  Observe();
  SubmitThree();
  clock_.SetNow(1001);
  MutexLock lock(&mu_);
  for (TaskId t = 0; t < 3; ++t) recorder_.ReportTaskSubmitted(mu_, t);
  ASSERT_EQ(observer_->tasks.size(), 3u);
  const TaskRecord& join = observer_->tasks[2];
  EXPECT_EQ(join.task, 2u);
  EXPECT_EQ(join.operation, "join");
  EXPECT_EQ(join.depends_on, (std::vector<TaskId>{0, 1}));
  EXPECT_EQ(join.submitted, 1001);
  EXPECT_TRUE(observer_->tasks[0].depends_on.empty());
  // No history: nothing is kept for it.
  EXPECT_TRUE(recorder_.TakePending(mu_).tasks.empty());
}

TEST_F(RunRecorderTest, AReplicaStartIsAlsoAnEvent) {
  Observe();
  SubmitThree();
  MutexLock lock(&mu_);
  recorder_.ReportJobStart(mu_, 7, 2, 1, /*replica=*/false, false, 1);
  recorder_.ReportJobStart(mu_, 8, 2, 0, /*replica=*/true, false, 1);
  ASSERT_EQ(observer_->starts.size(), 2u);
  EXPECT_EQ(observer_->starts[0].host, "beta");
  EXPECT_EQ(observer_->starts[0].operation, "join");
  EXPECT_EQ(observer_->starts[0].time, 1000);
  ASSERT_EQ(observer_->events.size(), 1u);
  EXPECT_EQ(observer_->events[0].kind, "replica");
  EXPECT_EQ(observer_->events[0].host, "alpha");
  EXPECT_EQ(observer_->events[0].task, 2u);
  EXPECT_EQ(observer_->events[0].detail, "job 8");
}

TEST_F(RunRecorderTest, AJobEndIsRecordedOnlyWhenWatched) {
  SubmitThree();
  MutexLock lock(&mu_);
  recorder_.RecordJob(mu_, 0, 0, ExitedReport(5, 0, 1001, 1002), false, 999, 0);
  EXPECT_TRUE(recorder_.TakePending(mu_).jobs.empty());
  lock.Unlock();
  Observe();
  lock.Lock();
  recorder_.RecordJob(mu_, 2, 1, ExitedReport(6, 3, 1001, 1002), true, 999, 0);
  ASSERT_EQ(observer_->jobs.size(), 1u);
  const JobRecord& job = observer_->jobs[0];
  EXPECT_EQ(job.job, 6u);
  EXPECT_EQ(job.task, 2u);
  EXPECT_EQ(job.operation, "join");
  EXPECT_EQ(job.host, "beta");
  EXPECT_EQ(job.outcome, OutcomeClass::kApp);
  EXPECT_EQ(job.submitted, 999);  // the report had none
  EXPECT_TRUE(job.replica);
}

TEST_F(RunRecorderTest, TaskEndsAndHostLossesAreTimed) {
  Observe();
  SubmitThree();
  clock_.SetNow(1005);
  MutexLock lock(&mu_);
  recorder_.ReportTaskEnd(mu_, 1, "futile");
  recorder_.RecordHostLost(mu_, 1, "connection reset");
  recorder_.RecordCheck(mu_, 1, true);  // an answer always counts
  ASSERT_EQ(observer_->ends.size(), 1u);
  EXPECT_EQ(observer_->ends[0].state, "futile");
  EXPECT_EQ(observer_->ends[0].time, 1005);
  RunRecorder::Pending pending = recorder_.TakePending(mu_);
  ASSERT_EQ(pending.failures.size(), 1u);
  EXPECT_EQ(pending.failures[0].host, "beta");
  EXPECT_EQ(pending.failures[0].kind, "host_lost");
  EXPECT_EQ(pending.failures[0].detail, "connection reset");
  EXPECT_EQ(pending.failures[0].time, 1005);
  ASSERT_EQ(pending.checks.size(), 3u);  // Start's two, then this one
  EXPECT_EQ(pending.checks[2].time, 1005);
}

// GS_Off tries a lost host every 0.25 s for 5 s: one outage, one check;
// the outage still unanswered a minute later is a second one, and the
// answer that ends it a third.
TEST_F(RunRecorderTest, RetriesWithinAnOutageAreOneCheck) {
  SubmitThree();
  MutexLock lock(&mu_);
  (void)recorder_.TakePending(mu_);  // Start's checks
  for (int i = 0; i < 20; ++i) {
    clock_.SetNow(1100 + 0.25 * i);
    recorder_.RecordCheck(mu_, 1, false);
  }
  EXPECT_EQ(recorder_.TakePending(mu_).checks.size(), 1u);
  clock_.SetNow(1100 + kCheckPace);
  recorder_.RecordCheck(mu_, 1, false);
  clock_.SetNow(1100 + kCheckPace + 1);
  recorder_.RecordCheck(mu_, 1, true);
  RunRecorder::Pending pending = recorder_.TakePending(mu_);
  ASSERT_EQ(pending.checks.size(), 2u);
  EXPECT_FALSE(pending.checks[0].answered);
  EXPECT_TRUE(pending.checks[1].answered);
}

TEST_F(RunRecorderTest, TheHistoryGetsWhatTheObserversHeard) {
  ASSERT_TRUE(OpenHistory());
  Observe();
  EXPECT_GT(recorder_.run_id(), 0);
  SubmitThree();
  {
    MutexLock lock(&mu_);
    for (TaskId t = 0; t < 3; ++t) recorder_.ReportTaskSubmitted(mu_, t);
    recorder_.ReportJobStart(mu_, 1, 0, 0, false, false, 1);
    recorder_.RecordJob(mu_, 0, 0, ExitedReport(1, 0, 1001, 1003), false, 0, 0);
    recorder_.ReportTaskEnd(mu_, 0, "done");
    recorder_.ReportEvent(mu_, RunEvent{"retry", 1003, 0, "alpha"});
    recorder_.RecordHostLost(mu_, 1, "gone");
  }
  RunRecorder::Pending pending;
  {
    MutexLock lock(&mu_);
    pending = recorder_.TakePending(mu_);
  }
  QueueWait wait;
  wait.host = "beta";
  wait.submitted = 990;
  wait.started = 1000;
  pending.queue_waits.push_back(wait);
  recorder_.Write(std::move(pending));
  clock_.SetNow(1010);
  ASSERT_TRUE(recorder_.EndRun(RunStatus::kOk).ok());

  std::unique_ptr<History> history = Reopen();
  ASSERT_NE(history, nullptr);
  const RunId run = recorder_.run_id();
  auto runs = history->LoadRun(run);
  ASSERT_TRUE(runs.ok());
  EXPECT_EQ(runs->program, "prog");
  EXPECT_EQ(runs->status, "ok");
  EXPECT_EQ(runs->host_count, 2);
  auto tasks = history->LoadTasks(run);
  ASSERT_TRUE(tasks.ok());
  ASSERT_EQ(tasks->size(), 3u);
  EXPECT_EQ((*tasks)[0].state, "done");
  EXPECT_EQ((*tasks)[2].record.depends_on, (std::vector<TaskId>{0, 1}));
  auto jobs = history->JobsForRun(run);
  ASSERT_TRUE(jobs.ok());
  ASSERT_EQ(jobs->size(), 1u);
  EXPECT_EQ((*jobs)[0].host, "alpha");
  auto events = history->LoadRunEvents(run);
  ASSERT_TRUE(events.ok());
  ASSERT_EQ(events->size(), 1u);
  EXPECT_EQ((*events)[0].kind, "retry");
  auto checks = history->LoadHostChecks(HistoryFilter{});
  ASSERT_TRUE(checks.ok());
  EXPECT_EQ(checks->size(), 2u);  // Start's, kept until the history opened
  auto failures = history->LoadHostFailures(HistoryFilter{"beta"});
  ASSERT_TRUE(failures.ok());
  ASSERT_EQ(failures->size(), 1u);
  EXPECT_EQ((*failures)[0].run, run);
  auto waits = history->LoadQueueWaits("beta", 10);
  ASSERT_TRUE(waits.ok());
  ASSERT_EQ(waits->size(), 1u);
  ASSERT_TRUE((*waits)[0].run_id.has_value());
  EXPECT_EQ(*(*waits)[0].run_id, run);
  EXPECT_TRUE(messages_.messages().empty()) << messages_.AllText();
}

// Ctrl-C: the running task's job is cancelled by the run's end and the
// task with it. The history keeps it as cancelled and counts it apart: the
// run has no failed task and no failed job (issue 36).
TEST_F(RunRecorderTest, ATaskTheRunsEndStoppedIsCancelledNotFailed) {
  ASSERT_TRUE(OpenHistory());
  Observe();
  SubmitThree();
  {
    MutexLock lock(&mu_);
    for (TaskId t = 0; t < 3; ++t) recorder_.ReportTaskSubmitted(mu_, t);
    recorder_.ReportJobStart(mu_, 1, 0, 0, false, false, 1);
    JobReport cancelled;
    cancelled.id = 1;
    cancelled.outcome = Cancelled{};
    cancelled.started = 1001;
    cancelled.ended = 1002;
    recorder_.RecordJob(mu_, 0, 0, cancelled, false, 0, 0);
    recorder_.ReportTaskEnd(mu_, 0, "cancelled");
  }
  WritePending();
  ASSERT_TRUE(recorder_.EndRun(RunStatus::kCancelled).ok());
  ASSERT_EQ(observer_->ends.size(), 1u);
  EXPECT_EQ(observer_->ends[0].state, "cancelled");

  std::unique_ptr<History> history = Reopen();
  ASSERT_NE(history, nullptr);
  auto tasks = history->LoadTasks(recorder_.run_id());
  ASSERT_TRUE(tasks.ok());
  ASSERT_EQ(tasks->size(), 3u);
  EXPECT_EQ((*tasks)[0].state, "cancelled");
  EXPECT_EQ((*tasks)[1].state, "submitted");  // never ran
  auto run = history->LoadRun(recorder_.run_id());
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->status, "cancelled");
  EXPECT_EQ(run->failed_tasks, 0);
  EXPECT_EQ(run->cancelled_tasks, 1);
  EXPECT_EQ(run->failed_jobs, 0);
  EXPECT_EQ(run->cancelled_jobs, 1);
  EXPECT_TRUE(messages_.messages().empty()) << messages_.AllText();
}

TEST_F(RunRecorderTest, ANextRunLearnsFromThisOne) {
  ASSERT_TRUE(OpenHistory());
  SubmitThree();
  {
    MutexLock lock(&mu_);
    recorder_.RecordJob(mu_, 0, 0, ExitedReport(1, 0, 1001, 1004), false, 0, 0);
    recorder_.RecordJob(mu_, 1, 0, ExitedReport(2, 1, 1001, 1004), false, 0, 0);
  }
  WritePending();
  ASSERT_TRUE(recorder_.EndRun(RunStatus::kOk).ok());

  RunRecorder next(graph_, ops_, messages_);
  next.set_clock(&clock_);
  next.AddHost("alpha", "local", true);
  next.AddHost("gamma", "local", true);
  ASSERT_TRUE(
      next.OpenHistory(dir_ / "history.db", "prog", "/w", clock_.Now()));
  EXPECT_GT(next.run_id(), recorder_.run_id());
  HistoryLessons lessons = next.ReadLessons(/*reliability=*/true);
  ASSERT_TRUE(lessons.exec_times.has_value());
  ASSERT_EQ(lessons.exec_times->size(), 1u);
  EXPECT_EQ((*lessons.exec_times)[0].operation, "produce");
  EXPECT_DOUBLE_EQ((*lessons.exec_times)[0].seconds, 3);
  ASSERT_EQ(lessons.job_success.size(), 2u);
  ASSERT_TRUE(lessons.job_success[0].has_value());
  EXPECT_EQ(lessons.job_success[0]->first, 1);   // ok
  EXPECT_EQ(lessons.job_success[0]->second, 2);  // ended
  ASSERT_EQ(lessons.reliability.size(), 2u);
  ASSERT_TRUE(lessons.reliability[0].has_value());
  EXPECT_EQ(lessons.reliability[0]->attempts, 1);  // Start's check
  EXPECT_TRUE(next.ReadLessons(/*reliability=*/false).reliability.empty());
}

TEST_F(RunRecorderTest, AHistoryThatCannotOpenIsAWarning) {
  // Its parent is a file: nothing is created.
  EXPECT_FALSE(recorder_.OpenHistory("/dev/null/history.db", "prog", "/w", 0));
  EXPECT_EQ(recorder_.history(), nullptr);
  const auto said = messages_.messages();
  ASSERT_EQ(said.size(), 1u) << messages_.AllText();
  EXPECT_EQ(said[0].kind, MessageKind::kWarning);
  EXPECT_EQ(said[0].text.rfind("gsrt: warning: running without a history (", 0),
            0u)
      << said[0].text;
  EXPECT_NE(said[0].text.find("); predictions start from nothing\n"),
            std::string::npos)
      << said[0].text;
}

TEST_F(RunRecorderTest, HistoryWarningsGoToTheSink) {
  recorder_.WarnHistory(Status::IoError("disk I/O error"));
  const auto said = messages_.messages();
  ASSERT_EQ(said.size(), 1u);
  EXPECT_EQ(said[0].kind, MessageKind::kWarning);
  EXPECT_EQ(said[0].text, "gsrt: warning: history: disk I/O error\n");
}

TEST_F(RunRecorderTest, FlushesEveryPeriodUntilStopped) {
  constexpr Seconds kPeriod = RunRecorder::kFlushPeriod;
  int before = 0, after = 0;
  recorder_.StartFlushing([&] { ++before; }, [&] { ++after; });
  EXPECT_EQ(clock_.pending(), 0u);  // no history: nothing to flush
  ASSERT_TRUE(OpenHistory());
  recorder_.StartFlushing([&] { ++before; }, [&] { ++after; });
  clock_.Advance(0.5 * kPeriod);
  EXPECT_EQ(before, 0);
  clock_.Advance(2.5 * kPeriod);
  EXPECT_EQ(before, 3);
  EXPECT_EQ(after, 3);
  recorder_.StopFlushing();
  clock_.Advance(20 * kPeriod);
  EXPECT_EQ(before, 3);
  EXPECT_TRUE(messages_.messages().empty()) << messages_.AllText();
}

TEST_F(RunRecorderTest, WithoutAHistoryWritesAndEndsNothing) {
  WritePending();
  EXPECT_TRUE(recorder_.EndRun(RunStatus::kOk).ok());
  EXPECT_TRUE(messages_.messages().empty());
}

}  // namespace
}  // namespace gs
