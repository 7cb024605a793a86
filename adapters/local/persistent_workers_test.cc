// The local adapter with persistent workers (runtime.workers: persistent),
// against the generated worker of tests/support/serve_ops.idl: the contract
// of process mode holds job by job, and a worker that crashes, hangs or is
// worn out is replaced.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "adapters/local/local_adapter.h"
#include "runtime/base/asio_clock.h"
#include "tests/support/child_master.h"
#include "tests/support/job_spec_builder.h"
#include "tests/support/report_collector.h"
#include "tests/support/run_until.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_files.h"

namespace gs {
namespace {

using ::testing::HasSubstr;

const std::string kServe = GSRT_SERVE_TEST_WORKER;

std::string Text(const std::string& path) {
  return ReadText(path).value_or("");
}

bool Alive(pid_t pid) {
  if (::kill(pid, 0) != 0) return false;
  // A zombie (not yet reaped by whoever inherited it) is dead too.
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  std::getline(stat, line);
  const size_t paren = line.rfind(')');
  return paren == std::string::npos || paren + 2 >= line.size() ||
         line[paren + 2] != 'Z';
}

class PersistentWorkersTest : public ::testing::Test {
 protected:
  PersistentWorkersTest() : clock_(io_) { Make({}); }

  void Make(WorkerPoolLimits limits, int slots = 1,
            WorkerMode mode = WorkerMode::kPersistent,
            HostEnvironment environment = {}) {
    adapter_.reset();
    LocalAdapterOptions options;
    options.slots = slots;
    options.work_dir = dir_ / "work";
    options.workers = mode;
    options.worker_limits = limits;
    options.environment = std::move(environment);
    adapter_ = std::make_unique<LocalAdapter>(io_, clock_, options);
    connected_ = adapter_->Connect();
    ASSERT_TRUE(connected_.ok()) << connected_.ToString();
  }

  // The value of variable `name` as job `id`'s worker sees it.
  std::string SeenByJob(JobId id, const std::string& name) {
    const std::string out = Out("env." + std::to_string(id));
    Exited e =
        RunExited(TestJob(id, kServe, "env_to", {Scalar(name), FileOut(out)}));
    EXPECT_TRUE(e.succeeded()) << e.error;
    return e.succeeded() ? Text(out) : "";
  }

  JobReport Run(JobSpec spec) {
    return RunJobToItsEnd(io_, *adapter_, reports_, std::move(spec));
  }

  Exited RunExited(JobSpec spec) { return ExpectExited(Run(std::move(spec))); }

  // The pid of the worker that runs job `id`.
  pid_t WorkerPid(JobId id) {
    Exited e = RunExited(TestJob(id, kServe, "pid", {}));
    EXPECT_TRUE(e.succeeded()) << e.error;
    return e.succeeded() ? std::stoi(e.results) : -1;
  }

  std::string Out(const std::string& name) { return dir_ / name; }

  TempDir dir_;
  boost::asio::io_context io_;
  AsioClock clock_;
  // Before the adapter: its destructor may still report (cancelled jobs).
  ReportCollector reports_;
  std::unique_ptr<LocalAdapter> adapter_;
  Status connected_;
};

TEST_F(PersistentWorkersTest, OneWorkerRunsJobAfterJob) {
  const pid_t first = WorkerPid(1);
  ASSERT_GT(first, 0);
  EXPECT_NE(first, ::getpid());
  for (JobId id = 2; id <= 5; ++id) EXPECT_EQ(WorkerPid(id), first);
  EXPECT_EQ(adapter_->workers_started(), 1);
  EXPECT_EQ(adapter_->idle_workers(), 1u);
  EXPECT_TRUE(Exists(dir_ / "work/jobs/1")) << "the sandbox went back";
  EXPECT_FALSE(Exists(dir_ / "work/jobs/5")) << "one sandbox, never renamed";
}

TEST_F(PersistentWorkersTest, OutputIsRenamedOnlyOnSuccess) {
  Exited ok = RunExited(
      TestJob(1, kServe, "echo", {Scalar("hello"), FileOut(Out("a"))}));
  EXPECT_TRUE(ok.succeeded()) << ok.error;
  EXPECT_EQ(Text(Out("a")), "hello");

  Exited failed = RunExited(
      TestJob(2, kServe, "echo_fail", {Scalar("half"), FileOut(Out("b"))}));
  EXPECT_EQ(failed.code, 1);
  EXPECT_FALSE(Exists(Out("b"))) << "a failed job's output never counts";
  ASSERT_FALSE(failed.log_dir.empty());
  EXPECT_THAT(Text(failed.log_dir + "/stderr"),
              HasSubstr("echo_fail fails on purpose"));
  EXPECT_EQ(failed.error, "echo_fail threw: echo_fail fails on purpose");
}

// The exception's message is the job's error in both modes (issue 13).
TEST_F(PersistentWorkersTest, ProcessModeReportsTheExceptionToo) {
  Make({}, 1, WorkerMode::kProcess);
  Exited failed = RunExited(
      TestJob(1, kServe, "echo_fail", {Scalar("half"), FileOut(Out("b"))}));
  EXPECT_EQ(failed.code, 1);
  EXPECT_EQ(failed.error, "echo_fail threw: echo_fail fails on purpose");
  EXPECT_EQ(adapter_->workers_started(), 0);
}

TEST_F(PersistentWorkersTest, AFailingJobDoesNotPoisonTheNext) {
  const pid_t pid = WorkerPid(1);
  Exited failed = RunExited(
      TestJob(2, kServe, "echo_fail", {Scalar("x"), FileOut(Out("b"))}));
  EXPECT_EQ(failed.code, 1);
  Exited next =
      RunExited(TestJob(3, kServe, "echo", {Scalar("y"), FileOut(Out("c"))}));
  EXPECT_TRUE(next.succeeded()) << next.error;
  EXPECT_EQ(Text(Out("c")), "y");
  EXPECT_EQ(next.log_dir, "") << "nothing of the failure in its logs";
  EXPECT_EQ(WorkerPid(4), pid) << "an application failure keeps the worker";
}

TEST_F(PersistentWorkersTest, StdoutAndStderrAreKeptPerJob) {
  Exited one =
      RunExited(TestJob(1, kServe, "print", {Scalar("o1"), Scalar("e1")}));
  Exited two =
      RunExited(TestJob(2, kServe, "print", {Scalar("o2"), Scalar("e2")}));
  ASSERT_TRUE(one.succeeded() && two.succeeded()) << one.error << two.error;
  const std::string logs = dir_ / "work/logs";
  EXPECT_EQ(Text(logs + "/job-1.stdout"), "o1");
  EXPECT_EQ(Text(logs + "/job-1.stderr"), "e1");
  EXPECT_EQ(Text(logs + "/job-2.stdout"), "o2");
  EXPECT_EQ(Text(logs + "/job-2.stderr"), "e2");
}

TEST_F(PersistentWorkersTest, ACrashFailsItsJobAndAFreshWorkerTakesOver) {
  const pid_t before = WorkerPid(1);
  Exited crashed = RunExited(TestJob(2, kServe, "crash", {}));
  EXPECT_EQ(crashed.code, 128 + SIGSEGV);
  EXPECT_THAT(crashed.error, HasSubstr("SIGSEGV"));
  EXPECT_FALSE(Alive(before));
  const pid_t after = WorkerPid(3);
  EXPECT_GT(after, 0);
  EXPECT_NE(after, before);
  EXPECT_EQ(adapter_->workers_started(), 2);
}

// The sandbox of job 1 (its result file holding the pid) is reused for
// job 2, whose worker exits 0 from inside the function: it never answers,
// and job 1's result must not pass for job 2's.
TEST_F(PersistentWorkersTest, AWorkerThatExitsMidJobLeavesNoResult) {
  const pid_t before = WorkerPid(1);
  ASSERT_GT(before, 0);
  Exited e = RunExited(TestJob(2, kServe, "exit_now", {Scalar("0")}));
  EXPECT_FALSE(e.succeeded());
  EXPECT_THAT(e.error, HasSubstr("was not written"));
  EXPECT_EQ(e.results, "");
}

TEST_F(PersistentWorkersTest, AHangPastTheTimeoutKillsItsWorker) {
  const pid_t before = WorkerPid(1);
  JobReport report =
      Run(TestJob(2, kServe, "sleep_ms", {Scalar("60000")}, /*timeout=*/0.3));
  EXPECT_TRUE(std::holds_alternative<TimedOut>(report.outcome))
      << OutcomeName(report);
  EXPECT_FALSE(Alive(before));
  EXPECT_FALSE(Exists(dir_ / "work/jobs/2"));
  const pid_t after = WorkerPid(3);
  EXPECT_NE(after, before);
}

TEST_F(PersistentWorkersTest, CancelKillsItsWorker) {
  const pid_t before = WorkerPid(1);
  reports_.Submit(*adapter_, TestJob(2, kServe, "sleep_ms", {Scalar("60000")}));
  RunReady(io_);
  adapter_->Cancel(2);
  ASSERT_TRUE(RunUntil(io_, [&] { return reports_.Has(2); }));
  EXPECT_TRUE(std::holds_alternative<Cancelled>(reports_.Get(2).outcome));
  EXPECT_FALSE(Alive(before));
  EXPECT_NE(WorkerPid(3), before);
}

TEST_F(PersistentWorkersTest, RecycledAfterMaxJobs) {
  Make({.max_jobs = 2});
  std::vector<pid_t> pids;
  for (JobId id = 1; id <= 5; ++id) pids.push_back(WorkerPid(id));
  EXPECT_EQ(pids[0], pids[1]);
  EXPECT_NE(pids[1], pids[2]);
  EXPECT_EQ(pids[2], pids[3]);
  EXPECT_NE(pids[3], pids[4]);
  EXPECT_FALSE(Alive(pids[0])) << "a worn-out worker is stopped";
  EXPECT_EQ(adapter_->workers_started(), 3);
}

TEST_F(PersistentWorkersTest, RecycledPastTheMemoryBound) {
  Make({.max_jobs = 1000, .max_rss_kb = 48 << 10});
  const pid_t small = WorkerPid(1);
  EXPECT_EQ(WorkerPid(2), small) << "under the bound it stays";
  Exited grew = RunExited(TestJob(3, kServe, "grow", {Scalar("64")}));
  ASSERT_TRUE(grew.succeeded()) << grew.error;
  EXPECT_GE(grew.usage.max_rss_kb, 64 << 10);
  EXPECT_NE(WorkerPid(4), small);
  EXPECT_FALSE(Alive(small));
}

TEST_F(PersistentWorkersTest, EnvironmentDoesNotLeakBetweenJobs) {
  JobSpec with =
      TestJob(1, kServe, "env_to", {Scalar("GSRT_T_VAR"), FileOut(Out("e1"))});
  with.env = {"GSRT_T_VAR=one"};
  ASSERT_TRUE(RunExited(std::move(with)).succeeded());
  EXPECT_EQ(Text(Out("e1")), "one");
  ASSERT_TRUE(RunExited(TestJob(2, kServe, "env_to",
                                {Scalar("GSRT_T_VAR"), FileOut(Out("e2"))}))
                  .succeeded());
  EXPECT_EQ(Text(Out("e2")), "(unset)") << "the job's entry is undone";

  ASSERT_TRUE(RunExited(TestJob(3, kServe, "set_env",
                                {Scalar("GSRT_T_SET"), Scalar("leak")}))
                  .succeeded());
  ASSERT_TRUE(RunExited(TestJob(4, kServe, "env_to",
                                {Scalar("GSRT_T_SET"), FileOut(Out("e4"))}))
                  .succeeded());
  EXPECT_EQ(Text(Out("e4")), "(unset)") << "what a job set is undone";
  ASSERT_TRUE(RunExited(TestJob(5, kServe, "env_to",
                                {Scalar("PATH"), FileOut(Out("e5"))}))
                  .succeeded());
  EXPECT_EQ(Text(Out("e5")), std::getenv("PATH"))
      << "the start-up environment stays";
  EXPECT_EQ(adapter_->workers_started(), 2)
      << "one worker for job 1's environment, one for the others";
}

TEST_F(PersistentWorkersTest, AWorkerServesOnlyJobsOfItsEnvironment) {
  Make({}, 2);
  auto pid_with = [&](JobId id, const char* env) {
    JobSpec spec = TestJob(id, kServe, "pid", {});
    spec.env = {env};
    Exited e = RunExited(std::move(spec));
    EXPECT_TRUE(e.succeeded()) << e.error;
    return e.succeeded() ? std::stoi(e.results) : -1;
  };
  const pid_t two = pid_with(1, "OMP_NUM_THREADS=2");
  const pid_t one = pid_with(2, "OMP_NUM_THREADS=1");
  EXPECT_NE(one, two);
  EXPECT_EQ(pid_with(3, "OMP_NUM_THREADS=2"), two);
  EXPECT_EQ(pid_with(4, "OMP_NUM_THREADS=1"), one);
  EXPECT_EQ(adapter_->workers_started(), 2);
}

TEST_F(PersistentWorkersTest, ProcessModeHonoursTheJobsEnvironmentToo) {
  Make({}, 1, WorkerMode::kProcess);
  JobSpec with =
      TestJob(1, kServe, "env_to", {Scalar("PATH"), FileOut(Out("p"))});
  with.env = {"PATH=/nowhere", "GSRT_T_OTHER=x"};
  ASSERT_TRUE(RunExited(std::move(with)).succeeded());
  EXPECT_EQ(Text(Out("p")), "/nowhere");
  EXPECT_EQ(adapter_->workers_started(), 0);
}

TEST_F(PersistentWorkersTest, JobsRunInParallelOnSeveralWorkers) {
  Make({}, 2);
  for (JobId id : {1, 2}) {
    reports_.Submit(*adapter_,
                    TestJob(id, kServe, "sleep_ms", {Scalar("300")}));
  }
  ASSERT_TRUE(
      RunUntil(io_, [&] { return reports_.Has(1) && reports_.Has(2); }));
  EXPECT_EQ(adapter_->workers_started(), 2);
  EXPECT_EQ(adapter_->idle_workers(), 2u);
}

TEST_F(PersistentWorkersTest, AWorkerThatCannotServeSaysWhatToDo) {
  Exited e = RunExited(TestJob(1, GSRT_TEST_WORKER, "noop", {}));
  EXPECT_EQ(e.code, 2);
  EXPECT_THAT(e.error, HasSubstr("runtime.workers: process"));
}

TEST_F(PersistentWorkersTest, ShutdownStopsRunningAndIdleWorkers) {
  Make({}, 2);
  const pid_t idle = WorkerPid(1);
  std::filesystem::path pid_file = dir_ / "busy.pid";
  reports_.Submit(*adapter_,
                  TestJob(2, kServe, "pid_then_sleep",
                          {Scalar(pid_file.string()), Scalar("60000")}));
  ASSERT_TRUE(RunUntil(
      io_, [&] { return Exists(pid_file) && !Text(pid_file).empty(); }));
  const pid_t busy = std::stoi(Text(pid_file));
  adapter_->Shutdown();
  EXPECT_TRUE(std::holds_alternative<Cancelled>(reports_.Get(2).outcome));
  EXPECT_FALSE(Alive(idle));
  EXPECT_FALSE(Alive(busy));
}

// A master killed outright (no Shutdown) leaves no worker behind: the
// worker's PR_SET_PDEATHSIG and the EOF of its socket end it.
TEST_F(PersistentWorkersTest, AWorkerDiesWithItsMaster) {
  std::filesystem::path pid_file = dir_ / "orphan.pid";
  const pid_t master = ::gs::testing::ForkMasterRunningOneJob(
      dir_ / "child-work", WorkerMode::kPersistent, kServe, pid_file);
  ASSERT_GE(master, 0);
  const pid_t worker =
      ::gs::testing::AwaitJobPid(pid_file, std::chrono::seconds(20));
  ASSERT_GT(worker, 0) << "the child master's job never started";
  ASSERT_TRUE(Alive(worker));
  ::kill(master, SIGKILL);
  ASSERT_EQ(::waitpid(master, nullptr, 0), master);
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (Alive(worker) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_FALSE(Alive(worker)) << "worker " << worker << " outlived its master";
}

// gsrt.yaml's env, setup and launcher (issue 29), in every worker mode: the
// setup's variables (run once, at Connect), the host's own and the
// launcher's (`env NAME=value` is a launcher that changes what it starts)
// all reach each job's worker.
TEST_F(PersistentWorkersTest, WorkersStartInTheHostsEnvironment) {
  for (WorkerMode mode :
       {WorkerMode::kPersistent, WorkerMode::kProcess, WorkerMode::kFork}) {
    SCOPED_TRACE(std::string(WorkerModeName(mode)));
    HostEnvironment e;
    e.env = {{"GSRT_T_SITE", "/opt/site"}};
    e.setup = {"export GSRT_T_TOOL=\"$GSRT_T_SITE/tool\"",
               "echo a setup says things"};
    e.launcher = {"env", "GSRT_T_LAUNCHED=yes"};
    Make({}, 1, mode, e);
    // Ids of their own: the last adapter's reports may still come.
    const JobId first = 10 * (static_cast<JobId>(mode) + 1);
    EXPECT_EQ(SeenByJob(first, "GSRT_T_SITE"), "/opt/site");
    EXPECT_EQ(SeenByJob(first + 1, "GSRT_T_TOOL"), "/opt/site/tool");
    EXPECT_EQ(SeenByJob(first + 2, "GSRT_T_LAUNCHED"), "yes");
  }
}

TEST_F(PersistentWorkersTest, AFailingSetupFailsTheHostNamingTheLine) {
  LocalAdapterOptions options;
  options.work_dir = dir_ / "work";
  options.host_name = "gpu1";
  options.environment.setup = {"true", "echo 'no module nosuch' >&2; exit 3"};
  LocalAdapter adapter(io_, clock_, options);
  Status s = adapter.Connect();
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("host 'gpu1': its setup failed"));
  EXPECT_THAT(s.message(), HasSubstr("no module nosuch"));
}

TEST_F(PersistentWorkersTest, AMissingLauncherFailsTheHostNamingIt) {
  LocalAdapterOptions options;
  options.work_dir = dir_ / "work";
  options.host_name = "gpu1";
  options.environment.launcher = {"gsrt-no-such-launcher", "exec"};
  LocalAdapter adapter(io_, clock_, options);
  Status s = adapter.Connect();
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("host 'gpu1': its launcher "
                                     "'gsrt-no-such-launcher' is not "
                                     "installed"));
}

// An agent on a pilot's allocation hands its devices to the jobs that hold
// GPUs and name none (protocol 2.6): each gets its own; a job holding more
// than there are fails its host, not the task.
TEST_F(PersistentWorkersTest, TheAdapterNamesDevicesOfItsOwn) {
  LocalAdapterOptions options;
  options.work_dir = dir_ / "work";
  options.host_name = "pilot1";
  options.slots = 2;
  options.gpus = {"3", "5"};
  adapter_ = std::make_unique<LocalAdapter>(io_, clock_, options);
  ASSERT_TRUE(adapter_->Connect().ok());
  JobSpec one = TestJob(1, kServe, "env_to",
                        {Scalar("CUDA_VISIBLE_DEVICES"), FileOut(Out("d1"))});
  one.gpus = 1;
  EXPECT_TRUE(RunExited(one).succeeded());
  EXPECT_EQ(Text(Out("d1")), "3");
  JobSpec two =
      TestJob(2, kServe, "env_to", {Scalar("GSRT_GPUS"), FileOut(Out("d2"))});
  two.gpus = 2;
  EXPECT_TRUE(RunExited(two).succeeded());
  EXPECT_EQ(Text(Out("d2")), "3,5") << "the first job gave its device back";
  JobSpec named = TestJob(3, kServe, "env_to",
                          {Scalar("CUDA_VISIBLE_DEVICES"), FileOut(Out("d3"))});
  named.gpus = 1;
  named.env = {"CUDA_VISIBLE_DEVICES=7"};  // the master named it
  EXPECT_TRUE(RunExited(named).succeeded());
  EXPECT_EQ(Text(Out("d3")), "7");
  JobSpec none = TestJob(5, kServe, "env_to",
                         {Scalar("CUDA_VISIBLE_DEVICES"), FileOut(Out("d5"))});
  EXPECT_TRUE(RunExited(none).succeeded());
  EXPECT_EQ(Text(Out("d5")), "") << "a CPU job sees none of the devices";
  JobSpec three = TestJob(4, kServe, "noop", {});
  three.gpus = 3;
  JobReport too_many = Run(three);
  ASSERT_TRUE(std::holds_alternative<HostFailed>(too_many.outcome));
  EXPECT_THAT(std::get<HostFailed>(too_many.outcome).reason,
              HasSubstr("host 'pilot1' has 2 GPUs to hand out"));
}

}  // namespace
}  // namespace gs
