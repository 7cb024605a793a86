// The local adapter with fork servers (runtime.workers: fork), against the
// generated worker of tests/support/serve_ops.idl: every job runs in a
// fresh process that no earlier job has touched, a crash or a hang costs
// only its job, a fork server that dies is replaced, and nothing outlives
// the adapter.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
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

// Fields of /proc/PID/stat after the command name: state, ppid, ...
std::vector<std::string> StatFields(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  std::getline(stat, line);
  const size_t paren = line.rfind(')');
  std::vector<std::string> fields;
  if (paren == std::string::npos) return fields;
  std::istringstream rest(line.substr(paren + 1));
  for (std::string f; rest >> f;) fields.push_back(f);
  return fields;
}

bool Alive(pid_t pid) {
  if (::kill(pid, 0) != 0) return false;
  // A zombie (not yet reaped by whoever inherited it) is dead too.
  const auto fields = StatFields(pid);
  return fields.empty() || fields[0] != "Z";
}

// Watches a process that is not our child (a fork server's job): its
// exit after a SIGKILL is asynchronous, so tests wait for it, bounded,
// on a pidfd opened while it was known to be alive.
class Watch {
 public:
  explicit Watch(pid_t pid)
      : fd_(static_cast<int>(::syscall(SYS_pidfd_open, pid, 0))) {}
  ~Watch() {
    if (fd_ >= 0) ::close(fd_);
  }
  Watch(const Watch&) = delete;
  Watch& operator=(const Watch&) = delete;

  bool watching() const { return fd_ >= 0; }
  // Whether it exits within 10 s.
  bool Gone() const {
    pollfd p{fd_, POLLIN, 0};
    return fd_ >= 0 && ::poll(&p, 1, 10000) == 1;
  }

 private:
  int fd_;
};

pid_t ParentOf(pid_t pid) {
  const auto fields = StatFields(pid);
  return fields.size() > 1 ? std::stoi(fields[1]) : -1;
}

class ForkServerTest : public ::testing::Test {
 protected:
  ForkServerTest() : clock_(io_) { Make(); }

  void Make(int slots = 1, WorkerMode mode = WorkerMode::kFork) {
    adapter_.reset();
    LocalAdapterOptions options;
    options.slots = slots;
    options.work_dir = dir_ / "work";
    options.workers = mode;
    // Limits of persistent workers; fork servers must ignore them.
    if (mode == WorkerMode::kFork) options.worker_limits = {.max_jobs = 1};
    adapter_ = std::make_unique<LocalAdapter>(io_, clock_, options);
    ASSERT_TRUE(adapter_->Connect().ok());
  }

  JobReport Run(JobSpec spec) {
    return RunJobToItsEnd(io_, *adapter_, reports_, std::move(spec));
  }

  Exited RunExited(JobSpec spec) { return ExpectExited(Run(std::move(spec))); }

  // The integer an operation of serve_ops returns, -1 if it failed.
  int Returned(JobId id, const char* op) {
    Exited e = RunExited(TestJob(id, kServe, op, {}));
    EXPECT_TRUE(e.succeeded()) << op << ": " << e.error;
    return e.succeeded() ? std::stoi(e.results) : -1;
  }

  // Submits a job that writes its pid to a file and sleeps; returns the
  // pid once it is written.
  pid_t StartSleeper(JobId id, double timeout = 0) {
    const std::string file = Out("sleeper-" + std::to_string(id));
    reports_.Submit(*adapter_,
                    TestJob(id, kServe, "pid_then_sleep",
                            {Scalar(file), Scalar("60000")}, timeout));
    EXPECT_TRUE(
        RunUntil(io_, [&] { return Exists(file) && !Text(file).empty(); }))
        << "job " << id << " never started";
    return Exists(file) ? std::stoi(Text(file)) : -1;
  }

  std::string Out(const std::string& name) { return dir_ / name; }

  TempDir dir_;
  boost::asio::io_context io_;
  AsioClock clock_;
  // Before the adapter: its destructor reports the jobs still running.
  ReportCollector reports_;
  std::unique_ptr<LocalAdapter> adapter_;
};

TEST_F(ForkServerTest, EveryJobIsAFreshProcessOfOneServer) {
  const pid_t server = Returned(1, "ppid");
  ASSERT_GT(server, 0);
  EXPECT_NE(server, ::getpid()) << "jobs are forked by a server, not by us";
  const pid_t first = Returned(2, "pid");
  const pid_t second = Returned(3, "pid");
  EXPECT_NE(first, second);
  EXPECT_NE(first, server);
  EXPECT_EQ(Returned(4, "ppid"), server) << "one server serves job after job";
  EXPECT_TRUE(Alive(server));
  EXPECT_EQ(adapter_->workers_started(), 1) << "max_jobs does not apply";
}

TEST_F(ForkServerTest, GlobalStateDoesNotSurviveBetweenJobs) {
  for (JobId id = 1; id <= 4; ++id) {
    EXPECT_EQ(Returned(id, "bump"), 1) << "job " << id;
  }
  // The same operation on a persistent worker does keep its count.
  Make(1, WorkerMode::kPersistent);
  EXPECT_EQ(Returned(5, "bump"), 1);
  EXPECT_EQ(Returned(6, "bump"), 2);
}

TEST_F(ForkServerTest, OutputIsRenamedOnlyOnSuccessAndLogsArePerJob) {
  Exited ok = RunExited(
      TestJob(1, kServe, "echo", {Scalar("hello"), FileOut(Out("a"))}));
  EXPECT_TRUE(ok.succeeded()) << ok.error;
  EXPECT_EQ(Text(Out("a")), "hello");

  Exited failed = RunExited(
      TestJob(2, kServe, "echo_fail", {Scalar("half"), FileOut(Out("b"))}));
  EXPECT_EQ(failed.code, 1);
  EXPECT_FALSE(Exists(Out("b"))) << "a failed job's output never counts";
  EXPECT_EQ(failed.error, "echo_fail threw: echo_fail fails on purpose");

  Exited one =
      RunExited(TestJob(3, kServe, "print", {Scalar("o3"), Scalar("e3")}));
  Exited two =
      RunExited(TestJob(4, kServe, "print", {Scalar("o4"), Scalar("e4")}));
  ASSERT_TRUE(one.succeeded() && two.succeeded()) << one.error << two.error;
  const std::string logs = dir_ / "work/logs";
  EXPECT_EQ(Text(logs + "/job-3.stdout"), "o3");
  EXPECT_EQ(Text(logs + "/job-3.stderr"), "e3");
  EXPECT_EQ(Text(logs + "/job-4.stdout"), "o4");
  EXPECT_EQ(Text(logs + "/job-4.stderr"), "e4");
}

TEST_F(ForkServerTest, ACrashFailsOnlyItsJob) {
  const pid_t server = Returned(1, "ppid");
  Exited crashed = RunExited(TestJob(2, kServe, "crash", {}));
  EXPECT_EQ(crashed.code, 128 + SIGSEGV);
  EXPECT_THAT(crashed.error, HasSubstr("SIGSEGV"));
  EXPECT_FALSE(crashed.log_dir.empty()) << "its sandbox is kept";
  EXPECT_TRUE(Alive(server)) << "the server survives its child's crash";
  Exited next =
      RunExited(TestJob(3, kServe, "echo", {Scalar("y"), FileOut(Out("c"))}));
  EXPECT_TRUE(next.succeeded()) << next.error;
  EXPECT_EQ(Text(Out("c")), "y");
  EXPECT_EQ(Returned(4, "ppid"), server);
  EXPECT_EQ(adapter_->workers_started(), 1);
}

// A child that exits 0 without writing its result: the server answers
// with status 0, and the result job 1 left in the reused sandbox must not
// pass for job 2's.
TEST_F(ForkServerTest, AChildThatExitsWithoutAResultFailsItsJob) {
  const pid_t server = Returned(1, "ppid");
  ASSERT_GT(server, 0);
  Exited e = RunExited(TestJob(2, kServe, "exit_now", {Scalar("0")}));
  EXPECT_FALSE(e.succeeded());
  EXPECT_THAT(e.error, HasSubstr("was not written"));
  EXPECT_EQ(Returned(3, "ppid"), server) << "the server goes on";
}

TEST_F(ForkServerTest, AHangPastTheTimeoutKillsItsJobAndTheNextRuns) {
  const pid_t hung = StartSleeper(1, /*timeout=*/0.3);
  ASSERT_GT(hung, 0);
  const pid_t server = ParentOf(hung);
  Watch job(hung);
  ASSERT_TRUE(job.watching());
  ASSERT_TRUE(RunUntil(io_, [&] { return reports_.Has(1); }));
  EXPECT_TRUE(std::holds_alternative<TimedOut>(reports_.Get(1).outcome))
      << OutcomeName(reports_.Get(1));
  EXPECT_TRUE(job.Gone());
  EXPECT_FALSE(Alive(server)) << "its process group was killed";
  const pid_t fresh = Returned(2, "ppid");
  EXPECT_GT(fresh, 0);
  EXPECT_NE(fresh, server);
}

// A fork server killed from outside while its job runs: the job fails
// (an application failure, which the engine retries by its budget) and
// the next job gets a fresh server.
TEST_F(ForkServerTest, AKilledServerFailsItsJobAndIsReplaced) {
  const pid_t child = StartSleeper(1);
  ASSERT_GT(child, 0);
  const pid_t server = ParentOf(child);
  ASSERT_GT(server, 0);
  ASSERT_NE(server, ::getpid());
  Watch job(child);
  ASSERT_TRUE(job.watching());
  ASSERT_EQ(::kill(server, SIGKILL), 0);
  ASSERT_TRUE(RunUntil(io_, [&] { return reports_.Has(1); }));
  const Exited* e = AsExited(reports_.Get(1));
  ASSERT_NE(e, nullptr) << OutcomeName(reports_.Get(1));
  EXPECT_EQ(e->code, 128 + SIGKILL);
  EXPECT_THAT(e->error, HasSubstr("fork server died"));
  EXPECT_TRUE(job.Gone()) << "the job's process died with its server";
  const pid_t fresh = Returned(2, "ppid");
  EXPECT_NE(fresh, server);
  EXPECT_EQ(adapter_->workers_started(), 2);
}

TEST_F(ForkServerTest, EnvironmentDoesNotLeakBetweenJobs) {
  JobSpec with =
      TestJob(1, kServe, "env_to", {Scalar("GSRT_T_VAR"), FileOut(Out("e1"))});
  with.env = {"GSRT_T_VAR=one"};
  ASSERT_TRUE(RunExited(std::move(with)).succeeded());
  EXPECT_EQ(Text(Out("e1")), "one");
  ASSERT_TRUE(RunExited(TestJob(2, kServe, "env_to",
                                {Scalar("GSRT_T_VAR"), FileOut(Out("e2"))}))
                  .succeeded());
  EXPECT_EQ(Text(Out("e2")), "(unset)") << "the job's entry is not kept";

  ASSERT_TRUE(RunExited(TestJob(3, kServe, "set_env",
                                {Scalar("GSRT_T_SET"), Scalar("leak")}))
                  .succeeded());
  ASSERT_TRUE(RunExited(TestJob(4, kServe, "env_to",
                                {Scalar("GSRT_T_SET"), FileOut(Out("e4"))}))
                  .succeeded());
  EXPECT_EQ(Text(Out("e4")), "(unset)") << "what a job set died with it";
  ASSERT_TRUE(RunExited(TestJob(5, kServe, "env_to",
                                {Scalar("PATH"), FileOut(Out("e5"))}))
                  .succeeded());
  EXPECT_EQ(Text(Out("e5")), std::getenv("PATH"))
      << "the start-up environment stays";
}

// A server starts with its jobs' environment (a library that reads a
// variable while it loads, in the server, sees the job's value).
TEST_F(ForkServerTest, AServerServesOnlyJobsOfItsEnvironment) {
  auto server_with = [&](JobId id, const char* env) {
    JobSpec spec = TestJob(id, kServe, "ppid", {});
    spec.env = {env};
    Exited e = RunExited(std::move(spec));
    EXPECT_TRUE(e.succeeded()) << e.error;
    return e.succeeded() ? std::stoi(e.results) : -1;
  };
  const pid_t two = server_with(1, "OMP_NUM_THREADS=2");
  const pid_t one = server_with(2, "OMP_NUM_THREADS=1");
  EXPECT_NE(one, two);
  std::ifstream environ("/proc/" + std::to_string(one) + "/environ");
  std::string all((std::istreambuf_iterator<char>(environ)),
                  std::istreambuf_iterator<char>());
  EXPECT_THAT(all, HasSubstr(std::string("OMP_NUM_THREADS=1") + '\0'));
}

TEST_F(ForkServerTest, CancelKillsItsJob) {
  const pid_t child = StartSleeper(1);
  ASSERT_GT(child, 0);
  Watch job(child);
  ASSERT_TRUE(job.watching());
  adapter_->Cancel(1);
  ASSERT_TRUE(RunUntil(io_, [&] { return reports_.Has(1); }));
  EXPECT_TRUE(std::holds_alternative<Cancelled>(reports_.Get(1).outcome));
  EXPECT_TRUE(job.Gone());
  EXPECT_GT(Returned(2, "pid"), 0);
}

TEST_F(ForkServerTest, AWorkerThatCannotServeSaysWhatToDo) {
  Exited e = RunExited(TestJob(1, GSRT_TEST_WORKER, "noop", {}));
  EXPECT_EQ(e.code, 2);
  EXPECT_THAT(e.error, HasSubstr("fork-server"));
  EXPECT_THAT(e.error, HasSubstr("runtime.workers: process"));
}

TEST_F(ForkServerTest, NothingOutlivesTheAdapter) {
  Make(2);
  const pid_t busy = StartSleeper(1);
  ASSERT_GT(busy, 0);
  const pid_t busy_server = ParentOf(busy);
  const pid_t idle_server = Returned(2, "ppid");
  ASSERT_NE(busy_server, idle_server);
  Watch job(busy);
  ASSERT_TRUE(job.watching());
  adapter_.reset();
  EXPECT_TRUE(std::holds_alternative<Cancelled>(reports_.Get(1).outcome));
  // The servers are the adapter's children, reaped before it returned.
  EXPECT_FALSE(Alive(idle_server));
  EXPECT_FALSE(Alive(busy_server));
  EXPECT_TRUE(job.Gone());
}

// A master killed outright (no Shutdown) leaves no server and no job
// behind: the server dies with the master and the job with the server.
TEST_F(ForkServerTest, JobAndServerDieWithTheirMaster) {
  std::filesystem::path pid_file = dir_ / "orphan.pid";
  const pid_t master = ::gs::testing::ForkMasterRunningOneJob(
      dir_ / "child-work", WorkerMode::kFork, kServe, pid_file);
  ASSERT_GE(master, 0);
  const pid_t job =
      ::gs::testing::AwaitJobPid(pid_file, std::chrono::seconds(20));
  ASSERT_GT(job, 0) << "the child master's job never started";
  const pid_t server = ParentOf(job);
  Watch job_watch(job), server_watch(server);
  ASSERT_TRUE(job_watch.watching() && server_watch.watching());
  ::kill(master, SIGKILL);
  ASSERT_EQ(::waitpid(master, nullptr, 0), master);
  EXPECT_TRUE(server_watch.Gone())
      << "server " << server << " outlived its master";
  EXPECT_TRUE(job_watch.Gone()) << "job " << job << " outlived its master";
}

}  // namespace
}  // namespace gs
