// AgentAdapter over PipeStream to a real gsrt-agent process running the
// real test worker: jobs, outputs, cancel, a killed agent, a stopped agent
// (heartbeat timeout), staging, path traversal, cleanup.
#include <dirent.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>

#include "adapters/agent/local_agent.h"
#include "adapters/transport/pipe_stream.h"
#include "runtime/base/asio_clock.h"
#include "tests/support/job_spec_builder.h"
#include "tests/support/report_collector.h"
#include "tests/support/run_until.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_files.h"

namespace gs {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

const std::string kWorker = GSRT_TEST_WORKER;
const std::string kAgent = GSRT_AGENT;

// Pids of processes whose working directory lies under `dir` (workers
// run in their sandboxes).
std::vector<pid_t> ProcessesUnder(const std::string& dir) {
  std::vector<pid_t> pids;
  const std::string prefix = fs::canonical(dir).string() + "/";
  DIR* proc = ::opendir("/proc");
  if (proc == nullptr) return pids;
  while (const dirent* e = ::readdir(proc)) {
    const pid_t pid = static_cast<pid_t>(std::atoi(e->d_name));
    if (pid <= 0) continue;
    std::error_code ec;
    const std::string cwd =
        fs::read_symlink("/proc/" + std::string(e->d_name) + "/cwd", ec);
    if (!ec && cwd.rfind(prefix, 0) == 0) pids.push_back(pid);
  }
  ::closedir(proc);
  return pids;
}

class AgentPipeTest : public ::testing::Test {
 protected:
  AgentPipeTest() : clock_(io_) {}

  ~AgentPipeTest() override {
    adapter_.reset();
    // Workers orphaned by a killed agent must not outlive the test.
    for (pid_t pid : ProcessesUnder(dir_.path())) ::kill(pid, SIGKILL);
  }

  void Make(Seconds heartbeat = 5, int slots = 2,
            WorkerMode workers = WorkerMode::kProcess) {
    LocalAgentOptions options;
    options.workers = workers;
    options.program = kAgent;
    options.work_dir = work_dir_;
    options.slots = slots;
    options.exit_grace = 5;
    options.adapter.host_name = "pipe-host";
    options.adapter.heartbeat_interval = heartbeat;
    options.adapter.connect_timeout = 20;
    adapter_ = MakeLocalAgentAdapter(io_, clock_, options,
                                     [this](int pid) { agent_pid_ = pid; });
    Status s = adapter_->Connect();
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  JobReport Run(JobSpec spec) {
    return RunJobToItsEnd(io_, *adapter_, reports_, std::move(spec));
  }

  // True once `n` workers run (their cwd is a sandbox of the agent).
  bool WorkersRunning(size_t n) {
    return RunUntil(io_,
                    [&] { return ProcessesUnder(dir_.path()).size() >= n; });
  }

  static bool Gone(pid_t pid) { return ::kill(pid, 0) != 0 && errno == ESRCH; }

  TempDir dir_;
  const std::string work_dir_ = dir_ / "agent dir";
  boost::asio::io_context io_;
  AsioClock clock_;
  std::unique_ptr<AgentAdapter> adapter_;
  pid_t agent_pid_ = -1;
  ReportCollector reports_;
};

// Runs `argv` to its end, returning (stdout, how it ended).
std::pair<std::string, Status> RunProgram(boost::asio::io_context& io,
                                          std::vector<std::string> argv) {
  std::string out;
  std::optional<Status> closed;
  auto s = PipeStream::Spawn(io, argv);
  if (!s.ok()) return {"", s.status()};
  (*s)->Start([&](std::string_view b) { out.append(b); },
              [&](Status why) { closed = why; });
  RunUntil(io, [&] { return closed.has_value(); });
  return {out, closed.value_or(Status::TimedOut("still running"))};
}

// `gsrt-agent --workers persistent`: one worker serves job after job on
// the agent's host, a crash costs only its job, and a killed agent takes
// its workers with it.
TEST_F(AgentPipeTest, PersistentWorkersBehindTheAgent) {
  const std::string serve = GSRT_SERVE_TEST_WORKER;
  Make(5, 1, WorkerMode::kPersistent);
  auto pid_of = [&](JobId id) {
    JobReport r = Run(TestJob(id, serve, "pid", {}));
    const Exited* e = AsExited(r);
    EXPECT_TRUE(e && e->succeeded()) << OutcomeName(r);
    return e && e->succeeded() ? std::stoi(e->results) : -1;
  };
  const pid_t first = pid_of(1);
  ASSERT_GT(first, 0);
  EXPECT_EQ(pid_of(2), first);
  JobReport crashed = Run(TestJob(3, serve, "crash", {}));
  const Exited* c = AsExited(crashed);
  ASSERT_NE(c, nullptr) << OutcomeName(crashed);
  EXPECT_EQ(c->code, 128 + SIGSEGV);
  const pid_t fresh = pid_of(4);
  EXPECT_GT(fresh, 0);
  EXPECT_NE(fresh, first);
  ASSERT_EQ(::kill(agent_pid_, SIGKILL), 0);
  // Bounded: the worker's PR_SET_PDEATHSIG fires when the agent dies.
  const bool gone = RunUntil(io_, [&] {
    std::ifstream stat("/proc/" + std::to_string(fresh) + "/stat");
    std::string line;
    std::getline(stat, line);
    const size_t paren = line.rfind(')');
    return !stat || line.empty() ||
           (paren != std::string::npos && paren + 2 < line.size() &&
            line[paren + 2] == 'Z');
  });
  EXPECT_TRUE(gone) << "worker " << fresh << " outlived its agent";
}

// `gsrt-agent --workers fork`: the agent's jobs are processes forked by a
// fork server on its host: no job sees an earlier one's statics, and a
// crash costs only its job.
TEST_F(AgentPipeTest, ForkServerBehindTheAgent) {
  const std::string serve = GSRT_SERVE_TEST_WORKER;
  Make(5, 1, WorkerMode::kFork);
  auto returned = [&](JobId id, const char* op) {
    JobReport r = Run(TestJob(id, serve, op, {}));
    const Exited* e = AsExited(r);
    EXPECT_TRUE(e && e->succeeded()) << op << ": " << OutcomeName(r);
    return e && e->succeeded() ? std::stoi(e->results) : -1;
  };
  EXPECT_EQ(returned(1, "bump"), 1);
  EXPECT_EQ(returned(2, "bump"), 1) << "a fresh process per job";
  const pid_t server = returned(3, "ppid");
  ASSERT_GT(server, 0);
  EXPECT_NE(server, agent_pid_) << "forked by a server, not by the agent";
  JobReport crashed = Run(TestJob(4, serve, "crash", {}));
  const Exited* c = AsExited(crashed);
  ASSERT_NE(c, nullptr) << OutcomeName(crashed);
  EXPECT_EQ(c->code, 128 + SIGSEGV);
  EXPECT_EQ(returned(5, "ppid"), server) << "the server outlives a crash";
}

TEST_F(AgentPipeTest, VersionAndUsage) {
  auto [out, how] = RunProgram(io_, {kAgent, "--version"});
  EXPECT_TRUE(how.ok()) << how.ToString();
  EXPECT_EQ(out, "gsrt-agent 0.1.0 protocol 2\n");
  auto [bad_out, bad] = RunProgram(io_, {kAgent, "--slots", "0"});
  EXPECT_THAT(bad.message(), HasSubstr("exited with code 2"));
  EXPECT_EQ(bad_out, "");  // errors go to stderr, never the protocol
}

TEST_F(AgentPipeTest, HandshakeTellsTheHost) {
  Make();
  EXPECT_EQ(adapter_->FreeSlots(), 2);
  EXPECT_EQ(adapter_->work_dir(), fs::canonical(work_dir_).string());
  EXPECT_EQ(adapter_->agent_hello().pid, static_cast<uint32_t>(agent_pid_));
  EXPECT_GT(adapter_->agent_hello().cores, 0u);
  EXPECT_GT(adapter_->agent_hello().memory_total, 0u);
}

TEST_F(AgentPipeTest, UnusableWorkDirIsTheConnectError) {
  LocalAgentOptions options;
  options.program = kAgent;
  options.work_dir = "/proc/self/no-such-dir";  // not writable, even by root
  auto adapter = MakeLocalAgentAdapter(io_, clock_, options);
  Status s = adapter->Connect();
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("/proc/self/no-such-dir"));
  EXPECT_EQ(adapter->FreeSlots(), 0);
}

TEST_F(AgentPipeTest, RunsRealJobsAndMovesOutputsOnlyOnSuccess) {
  Make();
  const JobReport add =
      Run(TestJob(1, kWorker, "add", {Scalar("40"), Scalar("2"), OutScalar()}));
  ASSERT_NE(AsExited(add), nullptr) << OutcomeName(add);
  EXPECT_TRUE(AsExited(add)->succeeded()) << AsExited(add)->error;
  EXPECT_EQ(AsExited(add)->results, "42\n");
  EXPECT_LE(add.submitted, add.started);
  EXPECT_LE(add.started, add.ended);

  const std::string good = dir_ / "out dir/good file.txt";
  const JobReport echo = Run(
      TestJob(2, kWorker, "echo", {Scalar("it's \"ok\"\n"), FileOut(good)}));
  ASSERT_NE(AsExited(echo), nullptr);
  EXPECT_TRUE(AsExited(echo)->succeeded()) << AsExited(echo)->error;
  EXPECT_EQ(ReadText(good), "it's \"ok\"\n");

  const std::string bad = dir_ / "bad.txt";
  const JobReport fail = Run(TestJob(
      3, kWorker, "echofail", {Scalar("half"), FileOut(bad), Scalar("4")}));
  ASSERT_NE(AsExited(fail), nullptr);
  EXPECT_EQ(AsExited(fail)->code, 4);
  EXPECT_FALSE(Exists(bad));
  EXPECT_THAT(AsExited(fail)->log_dir, HasSubstr("/failed/"));
  EXPECT_EQ(reports_.inside_submit(), 0);
}

TEST_F(AgentPipeTest, CancelStopsARunningJob) {
  Make();
  reports_.Submit(*adapter_, TestJob(5, kWorker, "sleep", {Scalar("60000")}));
  ASSERT_TRUE(WorkersRunning(1));
  adapter_->Cancel(5);
  ASSERT_TRUE(RunUntil(io_, [&] { return reports_.Has(5); }));
  EXPECT_TRUE(std::holds_alternative<Cancelled>(reports_.Get(5).outcome))
      << OutcomeName(reports_.Get(5));
  EXPECT_EQ(adapter_->FreeSlots(), 2);
}

// Prefetch: the master sends more jobs than the agent has slots; the agent
// queues them and runs them in the order sent, each reported once.
TEST_F(AgentPipeTest, PrefetchedJobsRunInOrderAndEachIsReported) {
  Make(5, 1, WorkerMode::kPersistent);
  const std::string serve = GSRT_SERVE_TEST_WORKER;
  std::vector<JobId> order;
  std::map<JobId, JobReport> got;
  for (JobId id = 30; id < 35; ++id) {
    adapter_->Submit(TestJob(id, serve, "pid", {}), [&](JobReport r) {
      order.push_back(r.id);
      got[r.id] = std::move(r);
    });
  }
  EXPECT_EQ(adapter_->outstanding(), 5);
  EXPECT_EQ(adapter_->FreeSlots(), 0) << "queued jobs hold no free slot";
  ASSERT_TRUE(RunUntil(io_, [&] { return order.size() == 5; }));
  EXPECT_EQ(order, (std::vector<JobId>{30, 31, 32, 33, 34}));
  for (auto& [id, r] : got) {
    const Exited* e = AsExited(r);
    EXPECT_TRUE(e && e->succeeded()) << id << ": " << OutcomeName(r);
  }
  EXPECT_EQ(adapter_->FreeSlots(), 1);
}

TEST_F(AgentPipeTest, CancelOfAPrefetchedJobDropsItFromTheQueue) {
  Make(5, 1);
  reports_.Submit(*adapter_, TestJob(20, kWorker, "sleep", {Scalar("60000")}));
  reports_.Submit(*adapter_, TestJob(21, kWorker, "sleep", {Scalar("60000")}));
  ASSERT_TRUE(WorkersRunning(1));
  adapter_->Cancel(21);
  ASSERT_TRUE(RunUntil(io_, [&] { return reports_.Has(21); }));
  EXPECT_TRUE(std::holds_alternative<Cancelled>(reports_.Get(21).outcome))
      << OutcomeName(reports_.Get(21));
  EXPECT_FALSE(reports_.Has(20)) << "the running job goes on";
  EXPECT_EQ(ProcessesUnder(dir_.path()).size(), 1u)
      << "the queued job never started";
  adapter_->Cancel(20);
  ASSERT_TRUE(RunUntil(io_, [&] { return reports_.Has(20); }));
  EXPECT_TRUE(std::holds_alternative<Cancelled>(reports_.Get(20).outcome));
  const JobReport r = Run(TestJob(22, kWorker, "noop"));
  ASSERT_NE(AsExited(r), nullptr) << OutcomeName(r);
  EXPECT_TRUE(AsExited(r)->succeeded());
}

TEST_F(AgentPipeTest, KilledAgentFailsEachOutstandingJobExactlyOnce) {
  Make();
  // Two run, the third waits in the agent's queue.
  for (JobId id : {10, 11, 12}) {
    reports_.Submit(*adapter_,
                    TestJob(id, kWorker, "sleep", {Scalar("30000")}));
  }
  ASSERT_TRUE(WorkersRunning(2));
  ASSERT_EQ(::kill(agent_pid_, SIGKILL), 0);
  ASSERT_TRUE(RunUntil(io_, [&] { return reports_.size() == 3; }));
  for (JobId id : {10, 11, 12}) {
    const auto* f = std::get_if<HostFailed>(&reports_.Get(id).outcome);
    ASSERT_NE(f, nullptr) << OutcomeName(reports_.Get(id));
    EXPECT_THAT(f->reason, HasSubstr("pipe-host"));
    EXPECT_THAT(f->reason, HasSubstr("SIGKILL"));
  }
  EXPECT_EQ(adapter_->FreeSlots(), 0);
  // Nothing late: let a heartbeat period's worth of events pass.
  bool settled = false;
  auto marker = clock_.After(0.3, [&] { settled = true; });
  ASSERT_TRUE(RunUntil(io_, [&] { return settled; }));
  EXPECT_EQ(reports_.Duplicates(), "");

  // A new agent takes over.
  const pid_t old_pid = agent_pid_;
  ASSERT_TRUE(adapter_->Connect().ok());
  EXPECT_NE(agent_pid_, old_pid);
  const JobReport r = Run(TestJob(13, kWorker, "noop"));
  ASSERT_NE(AsExited(r), nullptr);
  EXPECT_TRUE(AsExited(r)->succeeded());
}

TEST_F(AgentPipeTest, StoppedAgentIsLostByHeartbeatTimeout) {
  Make(/*heartbeat=*/0.2);
  reports_.Submit(*adapter_, TestJob(20, kWorker, "sleep", {Scalar("60000")}));
  ASSERT_TRUE(WorkersRunning(1));
  const pid_t agent = agent_pid_;
  const Seconds stopped_at = clock_.Now();
  ASSERT_EQ(::kill(agent, SIGSTOP), 0);
  ASSERT_TRUE(RunUntil(
      io_, [&] { return reports_.Has(20); }, std::chrono::seconds(10)));
  const Seconds detected_after = clock_.Now() - stopped_at;
  const auto* f = std::get_if<HostFailed>(&reports_.Get(20).outcome);
  ASSERT_NE(f, nullptr) << OutcomeName(reports_.Get(20));
  EXPECT_THAT(f->reason, HasSubstr("heartbeat timeout 0.6 s"));
  // Silence counts from the last answer, up to one heartbeat before.
  EXPECT_GE(detected_after, 0.3);
  EXPECT_LT(detected_after, 5.0);
  // Dropping the connection resumed the agent, which saw its input end,
  // killed its worker and exited.
  EXPECT_TRUE(Gone(agent));
  EXPECT_EQ(ProcessesUnder(dir_.path()), std::vector<pid_t>{});
}

TEST_F(AgentPipeTest, ShutdownEndsTheAgentAndItsWorkers) {
  Make();
  reports_.Submit(*adapter_, TestJob(30, kWorker, "sleep", {Scalar("60000")}));
  ASSERT_TRUE(WorkersRunning(1));
  adapter_->Shutdown();
  ASSERT_TRUE(reports_.Has(30));
  EXPECT_TRUE(std::holds_alternative<Cancelled>(reports_.Get(30).outcome));
  EXPECT_TRUE(Gone(agent_pid_));
  EXPECT_EQ(ProcessesUnder(dir_.path()), std::vector<pid_t>{});
}

class AgentPipeStagingTest : public AgentPipeTest {
 protected:
  Status Await(std::function<void(Adapter::StatusCallback)> start) {
    std::optional<Status> result;
    start([&](Status s) { result = std::move(s); });
    EXPECT_FALSE(result.has_value()) << "done ran inside the call";
    EXPECT_TRUE(RunUntil(io_, [&] { return result.has_value(); }));
    return result.value_or(Status::TimedOut("no answer"));
  }
};

TEST_F(AgentPipeStagingTest, MultiMegabyteRoundTripWithSpacesInNames) {
  Make();
  std::mt19937 rng(42);
  std::string data((7 << 20) + 12345, '\0');
  for (char& c : data) c = static_cast<char>(rng());
  const std::string source = dir_ / "my input file.dat";
  WriteText(source, data);
  ASSERT_TRUE(Await([&](auto done) {
                adapter_->Put(source, "staged dir/my input file.dat", done);
              }).ok());
  const std::string on_host =
      adapter_->work_dir() + "/staged dir/my input file.dat";
  EXPECT_EQ(ReadText(on_host), data);

  const std::string back = dir_ / "back dir/copy of file.dat";
  Status get = Await([&](auto done) { adapter_->Get(on_host, back, done); });
  ASSERT_TRUE(get.ok()) << get.ToString();
  EXPECT_EQ(ReadText(back), data);
}

TEST_F(AgentPipeStagingTest, JobsRunOnStagedFiles) {
  Make();
  WriteText(dir_ / "input", "staged payload");
  ASSERT_TRUE(Await([&](auto done) {
                adapter_->Put(dir_ / "input", "data/v0 in", done);
              }).ok());
  const std::string host = adapter_->work_dir();
  const JobReport r = Run(
      TestJob(40, kWorker, "copy",
              {FileIn(host + "/data/v0 in"), FileOut(host + "/data/v1 out")}));
  ASSERT_NE(AsExited(r), nullptr);
  ASSERT_TRUE(AsExited(r)->succeeded()) << AsExited(r)->error;
  ASSERT_TRUE(Await([&](auto done) {
                adapter_->Get("data/v1 out", dir_ / "result", done);
              }).ok());
  EXPECT_EQ(ReadText(dir_ / "result"), "staged payload");
  adapter_->Remove("data/v0 in");
  ASSERT_TRUE(RunUntil(io_, [&] { return !Exists(host + "/data/v0 in"); }));
}

TEST_F(AgentPipeStagingTest, PathTraversalIsRefused) {
  Make();
  WriteText(dir_ / "f", "x");
  Status up =
      Await([&](auto done) { adapter_->Put(dir_ / "f", "../escaped", done); });
  EXPECT_EQ(up.code(), Status::Code::kPermissionDenied) << up.ToString();
  EXPECT_FALSE(Exists(dir_ / "escaped"));
  Status abs =
      Await([&](auto done) { adapter_->Put(dir_ / "f", dir_ / "abs", done); });
  EXPECT_EQ(abs.code(), Status::Code::kPermissionDenied) << abs.ToString();
  EXPECT_FALSE(Exists(dir_ / "abs"));
  Status down = Await(
      [&](auto done) { adapter_->Get("/etc/passwd", dir_ / "pw", done); });
  EXPECT_EQ(down.code(), Status::Code::kPermissionDenied) << down.ToString();
  EXPECT_FALSE(Exists(dir_ / "pw"));
  EXPECT_TRUE(adapter_->connected());
}

}  // namespace
}  // namespace gs
