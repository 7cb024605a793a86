// Tests of the local adapter with real worker processes (gsrt_test_worker).
#include "adapters/local/local_adapter.h"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "adapters/local/host_facts.h"
#include "runtime/base/asio_clock.h"
#include "tests/support/job_spec_builder.h"
#include "tests/support/report_collector.h"
#include "tests/support/run_until.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_files.h"

namespace gs {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

const std::string kWorker = GSRT_TEST_WORKER;

class LocalAdapterTest : public ::testing::Test {
 protected:
  LocalAdapterTest() : clock_(io_) { Make(2); }

  void Make(int slots) {
    adapter_.reset();
    LocalAdapterOptions options;
    options.slots = slots;
    options.work_dir = dir_ / "work";
    adapter_ = std::make_unique<LocalAdapter>(io_, clock_, options);
    ASSERT_TRUE(adapter_->Connect().ok());
  }

  std::string Sandbox(JobId id) const {
    return dir_ / ("work/jobs/" + std::to_string(id));
  }

  void Submit(JobSpec spec) { reports_.Submit(*adapter_, std::move(spec)); }

  bool WaitFor(JobId id) {
    return RunUntil(io_, [&] { return reports_.Has(id); });
  }

  // Runs one job to its end and returns its report.
  JobReport Run(JobSpec spec) {
    const JobId id = spec.id;
    Submit(std::move(spec));
    EXPECT_EQ(reports_.inside_submit(), 0);
    EXPECT_TRUE(WaitFor(id)) << "job " << id << " did not finish in time";
    return reports_.Has(id) ? reports_.Get(id) : JobReport{};
  }

  // Runs a job expected to exit, returning its Exited.
  Exited RunExited(JobSpec spec) { return ExpectExited(Run(std::move(spec))); }

  TempDir dir_;
  boost::asio::io_context io_;
  AsioClock clock_;
  // Before the adapter: its destructor may still report (cancelled jobs).
  ReportCollector reports_;
  std::unique_ptr<LocalAdapter> adapter_;
};

TEST_F(LocalAdapterTest, MemoryCapacityIsTheMachinesMemTotal) {
  std::ifstream in("/proc/meminfo");
  std::stringstream meminfo;
  meminfo << in.rdbuf();
  const uint64_t total = MeminfoBytes(meminfo.str(), "MemTotal");
  ASSERT_GT(total, 0u);
  EXPECT_EQ(adapter_->memory_capacity(), total);
}

TEST_F(LocalAdapterTest, NoopSucceedsAndLeavesNothingBehind) {
  const Seconds before = clock_.Now();
  JobReport report = Run(TestJob(1, kWorker, "noop"));
  const Exited* e = AsExited(report);
  ASSERT_NE(e, nullptr) << OutcomeName(report);
  EXPECT_TRUE(e->succeeded()) << e->error;
  EXPECT_EQ(e->results, "");
  EXPECT_EQ(e->log_dir, "");
  EXPECT_EQ(report.id, 1u);
  EXPECT_LE(before, report.submitted);
  EXPECT_LE(report.submitted, report.started);
  EXPECT_LE(report.started, report.ended);
  EXPECT_LE(report.ended, clock_.Now());
  EXPECT_EQ(adapter_->FreeSlots(), 2);
  EXPECT_EQ(reports_.calls(1), 1);
  // Its sandbox waits, under its name, for the next job; Shutdown takes it.
  adapter_->Shutdown();
  EXPECT_FALSE(Exists(Sandbox(1)));
}

TEST_F(LocalAdapterTest, CopyMovesOutputIntoNewDirectoriesAndCountsBytes) {
  WriteText(dir_ / "in.txt", "hello, world");
  const std::string dest = dir_ / "deep/er/out.txt";
  Exited e = RunExited(
      TestJob(2, kWorker, "copy", {FileIn(dir_ / "in.txt"), FileOut(dest)}));
  EXPECT_TRUE(e.succeeded()) << e.error;
  EXPECT_EQ(ReadText(dest), "hello, world");
  EXPECT_EQ(e.bytes_in, 12u);
  EXPECT_EQ(e.bytes_out, 12u);
  EXPECT_FALSE(Exists(Sandbox(2) + "/out.1")) << "the output moved out";
}

TEST_F(LocalAdapterTest, InOutWorksOnACopyOfTheSource) {
  WriteText(dir_ / "v0", "abc");
  Exited e =
      RunExited(TestJob(3, kWorker, "append",
                        {FileInOut(dir_ / "v0", dir_ / "v1"), Scalar("de")}));
  EXPECT_TRUE(e.succeeded()) << e.error;
  EXPECT_EQ(ReadText(dir_ / "v0"), "abc") << "the input version is untouched";
  EXPECT_EQ(ReadText(dir_ / "v1"), "abcde");
  EXPECT_EQ(e.bytes_in, 3u);
  EXPECT_EQ(e.bytes_out, 5u);
}

TEST_F(LocalAdapterTest, ResultsAndOutScalarPlaceholder) {
  Exited e = RunExited(
      TestJob(4, kWorker, "add", {Scalar("2"), Scalar("40"), OutScalar()}));
  EXPECT_TRUE(e.succeeded()) << e.error;
  EXPECT_EQ(e.results, "42\n");
}

TEST_F(LocalAdapterTest, RunsInSandboxWithStdinFromDevNull) {
  Exited pwd = RunExited(TestJob(5, kWorker, "pwd"));
  EXPECT_EQ(pwd.results, Sandbox(5) + "\n");
  Exited in = RunExited(TestJob(6, kWorker, "stdin"));
  EXPECT_EQ(in.results, "0\n");
}

TEST_F(LocalAdapterTest, SandboxIsPrivate) {
  Submit(TestJob(7, kWorker, "sleep", {Scalar("60000")}));
  struct stat st;
  ASSERT_EQ(::stat(Sandbox(7).c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  adapter_->Cancel(7);
  ASSERT_TRUE(WaitFor(7));
}

TEST_F(LocalAdapterTest, FailureKeepsSandboxAndDoesNotMoveOutputs) {
  const std::string dest = dir_ / "never.txt";
  Exited e = RunExited(TestJob(
      8, kWorker, "echofail", {Scalar("partial"), FileOut(dest), Scalar("3")}));
  EXPECT_EQ(e.code, 3);
  EXPECT_EQ(e.error, "exit code 3");
  EXPECT_FALSE(e.succeeded());
  EXPECT_FALSE(Exists(dest)) << "a failed job's output must not count";
  // Kept as evidence, out of the job area where job 8 of a later run
  // would empty it.
  EXPECT_THAT(e.log_dir, StartsWith(std::string(dir_ / "work/failed/")));
  EXPECT_THAT(e.log_dir, HasSubstr("/task-8-echofail-job-8"));
  EXPECT_EQ(ReadText(e.log_dir + "/out.1"), "partial");
  EXPECT_TRUE(Exists(e.log_dir + "/stderr"));
  EXPECT_FALSE(Exists(Sandbox(8)));
}

TEST_F(LocalAdapterTest, TimedOutJobKeepsWhatItPrinted) {
  JobReport report = Run(TestJob(17, kWorker, "printsleep",
                                 {Scalar("reading chunk 3\n"), Scalar("60000")},
                                 /*timeout=*/0.3));
  const TimedOut* t = std::get_if<TimedOut>(&report.outcome);
  ASSERT_NE(t, nullptr) << OutcomeName(report);
  EXPECT_THAT(t->log_dir, HasSubstr("/failed/"));
  EXPECT_EQ(ReadText(t->log_dir + "/stderr"), "reading chunk 3\n");
}

TEST_F(LocalAdapterTest, EvidenceOutlivesALaterRunWithTheSameJobIds) {
  Exited first =
      RunExited(TestJob(8, kWorker, "echofail",
                        {Scalar("run 1"), FileOut(dir_ / "x"), Scalar("3")}));
  Make(2);  // the next run: job numbers start again
  ReportCollector next_run;
  next_run.Submit(*adapter_,
                  TestJob(8, kWorker, "echofail",
                          {Scalar("run 2"), FileOut(dir_ / "x"), Scalar("3")}));
  ASSERT_TRUE(RunUntil(io_, [&] { return next_run.Has(8); }));
  const Exited* second = AsExited(next_run.Get(8));
  ASSERT_NE(second, nullptr);
  ASSERT_NE(first.log_dir, second->log_dir);
  EXPECT_EQ(ReadText(first.log_dir + "/out.1"), "run 1");
  EXPECT_EQ(ReadText(second->log_dir + "/out.1"), "run 2");
}

TEST_F(LocalAdapterTest, EvidenceThatCannotBeKeptIsAWarningToTheUser) {
  RecordingMessages messages;
  adapter_->SetMessages(&messages);
  // failed/ cannot be made: a file has its name.
  std::filesystem::remove_all(dir_ / "work/failed");
  WriteText(dir_ / "work/failed", "in the way");
  Exited e = RunExited(TestJob(
      9, kWorker, "echofail", {Scalar("x"), FileOut(dir_ / "y"), Scalar("3")}));
  EXPECT_EQ(e.code, 3);
  // Left where it ran, and the user is told why.
  EXPECT_THAT(e.log_dir, StartsWith(std::string(dir_ / "work/jobs/")));
  EXPECT_TRUE(messages.Has(MessageKind::kWarning,
                           "gsrt: host 'local': cannot create " +
                               std::string(dir_ / "work/failed/")))
      << messages.AllText();
  adapter_->SetMessages(nullptr);  // `messages` goes before the adapter
}

TEST_F(LocalAdapterTest, EvidenceOlderThanTheConfiguredAgeGoesAtConnect) {
  const std::string old_session = dir_ / "work/failed/20200101-000000-1";
  const std::string new_session = dir_ / "work/failed/20200101-000000-2";
  std::filesystem::create_directories(old_session + "/task-1-op-job-1");
  std::filesystem::create_directories(new_session + "/task-1-op-job-1");
  timespec times[2] = {{0, UTIME_OMIT}, {std::time(nullptr) - 3 * 86400, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, old_session.c_str(), times, 0), 0);
  adapter_.reset();
  LocalAdapterOptions options;
  options.work_dir = dir_ / "work";
  options.keep_failed = 2 * 86400;
  adapter_ = std::make_unique<LocalAdapter>(io_, clock_, options);
  ASSERT_TRUE(adapter_->Connect().ok());
  EXPECT_FALSE(Exists(old_session)) << "three days old, kept for two";
  EXPECT_TRUE(Exists(new_session + "/task-1-op-job-1"));
}

TEST_F(LocalAdapterTest, SignalIsReportedAs128PlusSignal) {
  Exited e = RunExited(TestJob(9, kWorker, "crash"));
  EXPECT_EQ(e.code, 128 + SIGSEGV);
  EXPECT_THAT(e.error, StartsWith("killed by signal 11"));
  EXPECT_THAT(e.log_dir, HasSubstr("/failed/"));
  EXPECT_THAT(e.log_dir, HasSubstr("/task-9-crash-job-9"));
}

TEST_F(LocalAdapterTest, MissingDeclaredOutputIsAFailure) {
  Exited e =
      RunExited(TestJob(10, kWorker, "noout", {FileOut(dir_ / "o.txt")}));
  EXPECT_EQ(e.code, 0);
  EXPECT_FALSE(e.succeeded());
  EXPECT_EQ(e.error, "declared output '" + (dir_ / "o.txt") +
                         "' (parameter 0) was not written");
  EXPECT_THAT(e.log_dir, HasSubstr("/failed/"));
  EXPECT_THAT(e.log_dir, HasSubstr("/task-10-noout-job-10"));
}

TEST_F(LocalAdapterTest, MissingResultFileIsAFailure) {
  Exited e = RunExited(TestJob(11, kWorker, "noresult"));
  EXPECT_EQ(e.code, 0);
  EXPECT_FALSE(e.succeeded());
  EXPECT_THAT(e.error, HasSubstr("result"));
}

TEST_F(LocalAdapterTest, MissingWorkerIs127WithAHint) {
  Exited e = RunExited(TestJob(12, dir_ / "no-such-worker", "noop"));
  EXPECT_EQ(e.code, 127);
  EXPECT_THAT(e.error, HasSubstr(dir_ / "no-such-worker"));
  EXPECT_THAT(e.error, HasSubstr("no such file"));
  EXPECT_FALSE(Exists(Sandbox(12)));
}

TEST_F(LocalAdapterTest, NonExecutableWorkerIs127WithAHint) {
  WriteText(dir_ / "plain", "#!/bin/sh\n");
  ::chmod((dir_ / "plain").c_str(), 0644);
  Exited e = RunExited(TestJob(13, dir_ / "plain", "noop"));
  EXPECT_EQ(e.code, 127);
  EXPECT_THAT(e.error, HasSubstr("not executable"));
}

TEST_F(LocalAdapterTest, MissingInputIsPassedToTheFunction) {
  // As in a sequential run, the function sees no file and fails by itself.
  Exited e = RunExited(TestJob(14, kWorker, "copy",
                               {FileIn(dir_ / "absent"), FileOut(dir_ / "o")}));
  EXPECT_NE(e.code, 0);
  EXPECT_NE(e.code, 127);
  EXPECT_FALSE(std::filesystem::exists(dir_ / "o"));
}

TEST_F(LocalAdapterTest, InOutOfAnAbsentFileStartsWithoutIt) {
  // An append to a file that does not exist yet creates it, as it would
  // sequentially.
  Exited e = RunExited(
      TestJob(40, kWorker, "append",
              {FileInOut(dir_ / "absent", dir_ / "created"), Scalar("first")}));
  EXPECT_TRUE(e.succeeded()) << e.error;
  EXPECT_EQ(ReadText(dir_ / "created"), "first");
}

TEST_F(LocalAdapterTest, TimeoutKillsTheWorker) {
  JobReport report =
      Run(TestJob(15, kWorker, "sleep", {Scalar("60000")}, /*timeout=*/0.2));
  const TimedOut* t = std::get_if<TimedOut>(&report.outcome);
  ASSERT_NE(t, nullptr) << OutcomeName(report);
  EXPECT_EQ(t->limit, 0.2);
  EXPECT_GE(report.ended - report.started, 0.15);
  EXPECT_LT(report.ended - report.started, 20);
  EXPECT_EQ(adapter_->running(), 0);
}

TEST_F(LocalAdapterTest, FastJobBeatsItsTimeout) {
  Exited e = RunExited(TestJob(16, kWorker, "noop", {}, /*timeout=*/30));
  EXPECT_TRUE(e.succeeded()) << e.error;
}

TEST_F(LocalAdapterTest, CancelKillsARunningJob) {
  Submit(TestJob(17, kWorker, "sleep", {Scalar("60000")}));
  EXPECT_EQ(adapter_->running(), 1);
  adapter_->Cancel(17);
  adapter_->Cancel(17);  // twice is harmless
  ASSERT_TRUE(WaitFor(17));
  EXPECT_TRUE(std::holds_alternative<Cancelled>(reports_.Get(17).outcome));
  EXPECT_FALSE(Exists(Sandbox(17)));
  RunReady(io_);
  EXPECT_EQ(reports_.calls(17), 1);
  adapter_->Cancel(17);   // after the end: ignored
  adapter_->Cancel(999);  // unknown: ignored
  RunReady(io_);
  EXPECT_EQ(reports_.calls(17), 1);
}

TEST_F(LocalAdapterTest, JobsBeyondSlotsWaitInOrderAndCanBeCancelled) {
  Make(1);
  Submit(TestJob(20, kWorker, "sleep", {Scalar("60000")}));
  Submit(TestJob(21, kWorker, "noop"));
  Submit(TestJob(22, kWorker, "noop"));
  EXPECT_EQ(adapter_->running(), 1);
  EXPECT_EQ(adapter_->FreeSlots(), 0);
  adapter_->Cancel(21);
  ASSERT_TRUE(WaitFor(21));
  EXPECT_TRUE(std::holds_alternative<Cancelled>(reports_.Get(21).outcome));
  EXPECT_FALSE(reports_.Has(22)) << "22 must wait for the slot";
  adapter_->Cancel(20);
  ASSERT_TRUE(WaitFor(22));
  EXPECT_TRUE(std::holds_alternative<Cancelled>(reports_.Get(20).outcome));
  ASSERT_NE(AsExited(reports_.Get(22)), nullptr);
  EXPECT_TRUE(AsExited(reports_.Get(22))->succeeded());
  EXPECT_EQ(reports_.inside_submit(), 0);
}

TEST_F(LocalAdapterTest, NeverMoreThanSlotsRunAtOnce) {
  Make(2);
  int max_running = 0;
  for (JobId id = 30; id < 36; ++id) {
    adapter_->Submit(TestJob(id, kWorker, "sleep", {Scalar("50")}),
                     [&, cb = reports_.Callback()](JobReport r) {
                       max_running = std::max(max_running, adapter_->running());
                       cb(std::move(r));
                     });
    max_running = std::max(max_running, adapter_->running());
  }
  ASSERT_TRUE(RunUntil(io_, [&] { return reports_.size() == 6; }));
  EXPECT_EQ(max_running, 2);
  for (JobId id = 30; id < 36; ++id) {
    ASSERT_NE(AsExited(reports_.Get(id)), nullptr);
    EXPECT_TRUE(AsExited(reports_.Get(id))->succeeded());
  }
  EXPECT_EQ(adapter_->FreeSlots(), 2);
}

TEST_F(LocalAdapterTest, ShutdownCancelsEverythingBeforeReturning) {
  Make(2);
  for (JobId id = 40; id < 43; ++id) {
    Submit(TestJob(id, kWorker, "sleep", {Scalar("60000")}));
  }
  adapter_->Shutdown();
  ASSERT_EQ(reports_.size(), 3u);
  for (JobId id = 40; id < 43; ++id) {
    EXPECT_TRUE(std::holds_alternative<Cancelled>(reports_.Get(id).outcome));
    EXPECT_FALSE(Exists(Sandbox(id)));
  }
  EXPECT_EQ(adapter_->running(), 0);
  RunReady(io_);
  EXPECT_EQ(reports_.Duplicates(), "");

  // Closed until connected again.
  JobReport refused = Run(TestJob(43, kWorker, "noop"));
  EXPECT_TRUE(std::holds_alternative<HostFailed>(refused.outcome));
  ASSERT_TRUE(adapter_->Connect().ok());
  Exited e = RunExited(TestJob(44, kWorker, "noop"));
  EXPECT_TRUE(e.succeeded());
}

TEST_F(LocalAdapterTest, DestroyingTheAdapterReportsRunningJobs) {
  Submit(TestJob(45, kWorker, "sleep", {Scalar("60000")}));
  adapter_.reset();
  ASSERT_TRUE(reports_.Has(45));
  EXPECT_TRUE(std::holds_alternative<Cancelled>(reports_.Get(45).outcome));
  RunReady(io_);  // stale completions must not touch the dead adapter
  EXPECT_EQ(reports_.calls(45), 1);
}

TEST_F(LocalAdapterTest, NonEmptyLogsAreKept) {
  Exited e = RunExited(
      TestJob(50, kWorker, "print", {Scalar("to stdout"), Scalar("")}));
  EXPECT_TRUE(e.succeeded()) << e.error;
  EXPECT_EQ(e.log_dir, dir_ / "work/logs");
  EXPECT_EQ(ReadText(dir_ / "work/logs/job-50.stdout"), "to stdout");
  EXPECT_FALSE(Exists(dir_ / "work/logs/job-50.stderr"));
  EXPECT_FALSE(Exists(Sandbox(50) + "/stdout")) << "moved to the logs";

  Exited quiet =
      RunExited(TestJob(51, kWorker, "print", {Scalar(""), Scalar("")}));
  EXPECT_EQ(quiet.log_dir, "");
  EXPECT_FALSE(Exists(dir_ / "work/logs/job-51.stdout"));
}

TEST_F(LocalAdapterTest, StaleSandboxOfAnEarlierRunIsReplaced) {
  std::filesystem::create_directories(Sandbox(60));
  WriteText(Sandbox(60) + "/out.0", "stale");
  Exited e = RunExited(TestJob(60, kWorker, "noout", {FileOut(dir_ / "o")}));
  EXPECT_FALSE(e.succeeded()) << "the stale out.0 must not pass as output";
  EXPECT_FALSE(Exists(dir_ / "o"));
}

TEST_F(LocalAdapterTest, ArgumentsReachTheWorkerUntouched) {
  const std::string text = "a b; $HOME `id` 'q' \"qq\" \\ *\nline2";
  const std::string dest = dir_ / "out file; $x.txt";
  Exited e =
      RunExited(TestJob(61, kWorker, "echo", {Scalar(text), FileOut(dest)}));
  EXPECT_TRUE(e.succeeded()) << e.error;
  EXPECT_EQ(ReadText(dest), text);
}

TEST_F(LocalAdapterTest, ReusedSandboxDoesNotPassOffAnEarlierResult) {
  Make(1);  // one slot: the second job reuses the first one's sandbox
  Exited first = RunExited(
      TestJob(70, kWorker, "add", {Scalar("1"), Scalar("2"), OutScalar()}));
  ASSERT_EQ(first.results, "3\n");
  Exited second = RunExited(TestJob(71, kWorker, "noresult"));
  EXPECT_FALSE(second.succeeded());
  EXPECT_THAT(second.error, HasSubstr("result"));
  EXPECT_FALSE(Exists(Sandbox(71) + "/result"))
      << "a kept sandbox shows only what its own job wrote";
}

TEST_F(LocalAdapterTest, LaterJobsStartInAnEmptySandbox) {
  Make(1);
  for (JobId id = 72; id < 76; id += 2) {
    Exited dirty = RunExited(TestJob(id, kWorker, "scratch", {Scalar("junk")}));
    ASSERT_TRUE(dirty.succeeded()) << dirty.error;
    Exited look = RunExited(TestJob(id + 1, kWorker, "listcwd"));
    ASSERT_TRUE(look.succeeded()) << look.error;
    EXPECT_THAT(look.results, Not(HasSubstr("junk")));
    EXPECT_THAT(look.results, Not(HasSubstr("out.")));
  }
}

TEST_F(LocalAdapterTest, OutputsWorkInAReusedSandbox) {
  Make(1);
  for (JobId id = 76; id < 80; ++id) {
    const std::string dest = dir_ / ("out" + std::to_string(id));
    Exited e = RunExited(TestJob(id, kWorker, "echo",
                                 {Scalar(std::to_string(id)), FileOut(dest)}));
    EXPECT_TRUE(e.succeeded()) << e.error;
    EXPECT_EQ(ReadText(dest), std::to_string(id));
  }
  Exited e = RunExited(TestJob(80, kWorker, "noout", {FileOut(dir_ / "x")}));
  EXPECT_THAT(e.error, HasSubstr("was not written"));
}

TEST_F(LocalAdapterTest, UsageIsReported) {
  Exited e = RunExited(TestJob(62, kWorker, "noop"));
  EXPECT_GT(e.usage.max_rss_kb, 0);
  EXPECT_GE(e.usage.user_cpu, 0);
  EXPECT_GE(e.usage.system_cpu, 0);
}

TEST_F(LocalAdapterTest, RelativeWorkDirIsRejectedWithAHint) {
  LocalAdapterOptions options;
  options.work_dir = "relative/dir";
  LocalAdapter bad(io_, clock_, options);
  Status s = bad.Connect();
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("relative/dir"));
  EXPECT_THAT(s.message(), HasSubstr("absolute"));
}

TEST_F(LocalAdapterTest, StagingIsPlainLocalCopying) {
  EXPECT_TRUE(adapter_->shares_master_files());
  EXPECT_EQ(adapter_->work_dir(), dir_ / "work");
  WriteText(dir_ / "m", "data");
  std::optional<Status> put, get, bad;
  adapter_->Put(dir_ / "m", dir_ / "host/sub/v1", [&](Status s) { put = s; });
  EXPECT_FALSE(put.has_value()) << "done must not run inside Put";
  adapter_->Get(dir_ / "host/sub/v1", dir_ / "back",
                [&](Status s) { get = s; });
  adapter_->Put(dir_ / "absent", dir_ / "x", [&](Status s) { bad = s; });
  ASSERT_TRUE(RunUntil(io_, [&] { return put && get && bad; }));
  EXPECT_TRUE(put->ok()) << put->ToString();
  EXPECT_TRUE(get->ok()) << get->ToString();
  EXPECT_FALSE(bad->ok());
  EXPECT_EQ(ReadText(dir_ / "back"), "data");
  EXPECT_FALSE(Exists(dir_ / "x"));
  for (const auto& e : std::filesystem::directory_iterator(dir_.path())) {
    EXPECT_EQ(e.path().filename().string().find("gsrt-part"), std::string::npos)
        << "a temporary was left: " << e.path();
  }
  adapter_->Remove(dir_ / "back");
  EXPECT_FALSE(Exists(dir_ / "back"));
  adapter_->Remove(dir_ / "back");  // absent: harmless
}

TEST_F(LocalAdapterTest, DuplicateJobIdIsRefused) {
  Submit(TestJob(90, kWorker, "sleep", {Scalar("60000")}));
  Exited dup = RunExited(TestJob(90, kWorker, "noop"));
  EXPECT_EQ(dup.code, 127);
  EXPECT_THAT(dup.error, HasSubstr("already running"));
  EXPECT_EQ(adapter_->running(), 1) << "the first job is untouched";
  adapter_->Cancel(90);
  ASSERT_TRUE(RunUntil(io_, [&] { return adapter_->running() == 0; }));
}

TEST_F(LocalAdapterTest, DefaultSlotsFollowTheHardware) {
  EXPECT_GE(LocalAdapterOptions{}.slots, 1);
  EXPECT_EQ(adapter_->kind(), "local");
}

}  // namespace
}  // namespace gs
