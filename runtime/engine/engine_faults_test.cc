// The engine's failure handling, rule by rule, with faults injected by
// FaultInjectingAdapter around the scripted FakeAdapter: no processes.
// Each host has its own fake (its own log and script) and its own plan.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <future>
#include <mutex>
#include <set>
#include <sstream>

#include "gs/gs.h"
#include "runtime/engine/engine.h"
#include "runtime/observe/summary_observer.h"
#include "runtime/sched/prefetch.h"
#include "tests/support/fake_adapter.h"
#include "tests/support/fake_operations.h"
#include "tests/support/fault_injecting_adapter.h"

namespace gs {
namespace {

namespace fs = std::filesystem;
using testing::FakeAdapter;

struct FakeHost {
  std::string name;
  bool remote = false;  // its own data dir: files move through Put/Get
  int slots = 1;
  bool declared = false;       // its slots given, as gsrt.yaml's `slots`
  int prefetch = 0;            // jobs queued beyond its slots
  double prefetch_window = 0;  // more of them when jobs are short
  FakeAdapter::Log log;
  std::shared_ptr<FaultPlan> plan = std::make_shared<FaultPlan>();
};

class EngineFaultsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("gsrt-faults-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    options_.cwd = dir_.string();
    options_.work_dir = (dir_ / ".gsrt").string();
    options_.retries.backoff = 0;
    options_.reconnect_backoff = 0.05;
    options_.reconnect_backoff_max = 0.05;
  }
  void TearDown() override {
    engine_.reset();
    fs::remove_all(dir_);
  }

  FakeHost& AddHost(std::string name, bool remote, int slots = 1) {
    hosts_.push_back(std::make_unique<FakeHost>());
    FakeHost& h = *hosts_.back();
    h.name = std::move(name);
    h.remote = remote;
    h.slots = slots;
    return h;
  }

  void Start() {
    engine_ = std::make_unique<Engine>(options_);
    std::vector<HostSetup> setups;
    for (auto& host : hosts_) {
      FakeHost* h = host.get();
      std::string remote = h->remote ? (dir_ / h->name).string() : "";
      setups.push_back(
          HostSetup{h->name,
                    [h, remote](boost::asio::io_context& io, Clock& clock) {
                      return std::make_unique<FaultInjectingAdapter>(
                          io, clock,
                          std::make_unique<FakeAdapter>(
                              io, clock, h->slots, &h->log, remote, h->name),
                          h->plan);
                    },
                    "/no/worker"});
      setups.back().prefetch = h->prefetch;
      if (h->declared) setups.back().cores = h->slots;
      setups.back().prefetch_window = h->prefetch_window;
    }
    ASSERT_TRUE(engine_->Start(std::move(setups)).ok());
  }

  TaskId Produce(const char* file, int n) {
    return testing::SubmitProduce(*engine_, file, n);
  }
  TaskId Consume(const char* in, const char* out) {
    return testing::SubmitConsume(*engine_, in, out);
  }
  std::string Read(const std::string& name) {
    std::ifstream in(dir_ / name, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  static int Attempts(FakeHost& h, const std::string& op) {
    std::lock_guard<std::mutex> lock(h.log.mu);
    return h.log.attempts[op];
  }
  static int Submitted(FakeHost& h) {
    std::lock_guard<std::mutex> lock(h.log.mu);
    return static_cast<int>(h.log.submitted.size());
  }
  // Waits (bounded) until `pred` holds for `h`'s log.
  template <typename Pred>
  static bool WaitFor(FakeHost& h, Pred pred) {
    std::unique_lock<std::mutex> lock(h.log.mu);
    return h.log.cv.wait_for(lock, std::chrono::seconds(10),
                             [&] { return pred(h.log); });
  }

  fs::path dir_;
  EngineOptions options_;
  std::vector<std::unique_ptr<FakeHost>> hosts_;
  std::unique_ptr<Engine> engine_;
};

// --- failure classes and budgets ---

TEST_F(EngineFaultsTest, InfrastructureFailureIsNotChargedToTheAppBudget) {
  options_.retries.app = 0;  // one application failure would be final
  options_.retries.infra = 2;
  FakeHost& a = AddHost("a", false);
  a.plan->FailNextSubmits(2, HostFailed{"connection reset"});
  Start();
  Produce("x", 1);
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_EQ(Read("x"), "produce(1,)");
  EXPECT_EQ(a.plan->injected_failures(), 2);
}

TEST_F(EngineFaultsTest, InfrastructureBudgetRunsOut) {
  options_.retries.infra = 1;
  FakeHost& a = AddHost("a", false);
  a.log.script["produce"].host_fails = true;
  std::ofstream(dir_ / "input") << "in";
  Start();
  Produce("x", 1);
  Consume("x", "y");          // futile: its input is never made
  Consume("input", "other");  // independent: still runs
  EXPECT_NE(engine_->Stop(), 0);
  EXPECT_EQ(Read("other"), "consume([in],)");
  EXPECT_FALSE(fs::exists(dir_ / "y"));
  EXPECT_EQ(Attempts(a, "consume"), 1) << "a futile task ran";
}

TEST_F(EngineFaultsTest, TimeoutHasItsOwnBudget) {
  options_.retries.timeout = 1;
  options_.retries.app = 5;
  FakeHost& a = AddHost("a", false);
  a.plan->FailNextSubmits(2, TimedOut{3, ""});
  Start();
  Produce("x", 1);
  EXPECT_NE(engine_->Stop(), 0) << "two timeouts exceed a budget of 1";
  EXPECT_EQ(a.plan->injected_failures(), 2);
}

TEST_F(EngineFaultsTest, UnlessExitCodeIsFinal) {
  options_.retries.app = 5;
  options_.retries.unless_exit = {3};
  FakeHost& a = AddHost("a", false);
  a.log.script["produce"].exit_code = 3;
  Start();
  Produce("x", 1);
  EXPECT_NE(engine_->Stop(), 0);
  EXPECT_EQ(Attempts(a, "produce"), 1) << "retried an exit code marked final";
}

TEST_F(EngineFaultsTest, RetryWaitsForItsBackoff) {
  options_.retries.backoff = 0.3;
  FakeHost& a = AddHost("a", false);
  a.log.script["produce"].fail_first = 1;
  Start();
  auto start = std::chrono::steady_clock::now();
  Produce("x", 1);
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_GE(std::chrono::steady_clock::now() - start,
            std::chrono::milliseconds(300))
      << "the retry did not wait for the backoff";
  EXPECT_EQ(Attempts(a, "produce"), 2);
}

// --- host down: rewinding and reconnection ---

TEST_F(EngineFaultsTest, HostDownRewindsOnlyCopiesAndComesBack) {
  FakeHost& a = AddHost("a", true);
  FakeHost& b = AddHost("b", true);
  Start();
  Produce("x", 1);  // on a (first host): x's only copy
  engine_->Barrier();
  a.plan->SetDown(true);
  Consume("x", "y");  // x must be recomputed on b
  engine_->Barrier();
  EXPECT_EQ(Read("y"), "");  // not fetched yet: stays on b until GS_Off
  EXPECT_GE(Attempts(b, "produce"), 1) << "x was not recomputed on b";
  a.plan->SetDown(false);
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_EQ(Read("y"), "consume([produce(1,)],)");
  EXPECT_EQ(Read("x"), "produce(1,)");
}

// --- what a lost host keeps is swept when it answers again ---

// Each sweep of host `h` so far, as its keep list ("" for none).
std::vector<std::string> Sweeps(FakeHost& h) {
  std::lock_guard<std::mutex> lock(h.log.mu);
  std::vector<std::string> keeps;
  for (const std::string& s : h.log.sweeps) {
    // "HOST OWNER KEEP...": the owner holds no space.
    size_t owner_end = s.find(' ', h.name.size() + 1);
    keeps.push_back(owner_end == std::string::npos ? ""
                                                   : s.substr(owner_end + 1));
  }
  return keeps;
}

TEST_F(EngineFaultsTest, ALostHostIsSweptWhenItComesBack) {
  FakeHost& a = AddHost("a", true);
  FakeHost& b = AddHost("b", true);
  FakeHost& shared = AddHost("shared", false);
  Start();
  Produce("x", 1);  // on a: its copy of x is dropped when a is lost
  engine_->Barrier();
  ASSERT_TRUE(WaitFor(a, [](auto& log) { return log.sweeps.size() == 1; }));
  a.plan->SetDown(true);
  Consume("x", "y");
  engine_->Barrier();
  EXPECT_EQ(Sweeps(a).size(), 1u) << "swept while it was down";
  a.plan->SetDown(false);
  // Back after its backoff: swept before anything else reaches it, and
  // of everything, since the run counts on no copy there any more.
  ASSERT_TRUE(WaitFor(a, [](auto& log) { return log.sweeps.size() == 2; }));
  EXPECT_EQ(Sweeps(a), (std::vector<std::string>{"", ""}));
  EXPECT_EQ(engine_->Stop(), 0);
  // And once more at GS_Off, after the run's last removals.
  EXPECT_EQ(Sweeps(a), (std::vector<std::string>{"", "", ""}));
  EXPECT_EQ(Sweeps(b), (std::vector<std::string>{"", ""}));
  EXPECT_TRUE(Sweeps(shared).empty()) << "it keeps no files of its own";
  EXPECT_EQ(Read("y"), "consume([produce(1,)],)");
}

TEST_F(EngineFaultsTest, GsOffReachesOnceMoreForAHostLostAndNotBack) {
  // No reconnect during the run: only GS_Off's own attempt.
  options_.reconnect_backoff = 600;
  options_.reconnect_backoff_max = 600;
  FakeHost& a = AddHost("a", true);
  FakeHost& b = AddHost("b", true);
  Start();
  Produce("x", 1);
  engine_->Barrier();
  a.plan->SetDown(true);
  Consume("x", "y");
  engine_->Barrier();
  a.plan->SetDown(false);
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_EQ(Sweeps(a), (std::vector<std::string>{"", ""}));
  EXPECT_EQ(Sweeps(b).size(), 2u);  // at start and at GS_Off
}

TEST_F(EngineFaultsTest, GsOffSaysWhatStaysOnAHostThatDoesNotAnswer) {
  options_.reconnect_backoff = 600;
  options_.reconnect_backoff_max = 600;
  FakeHost& a = AddHost("a", true);
  AddHost("b", true);
  Start();
  Produce("x", 1);
  engine_->Barrier();
  a.plan->SetDown(true);
  Consume("x", "y");
  const auto before = std::chrono::steady_clock::now();
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(engine_->Stop(), 0);
  const std::string err = ::testing::internal::GetCapturedStderr();
  // Attempts end after 5 s; the longer bound is for one that never answers.
  EXPECT_LT(std::chrono::steady_clock::now() - before,
            std::chrono::seconds(10));
  EXPECT_EQ(Sweeps(a).size(), 1u);
  EXPECT_NE(err.find("host a did not answer again"), std::string::npos) << err;
  EXPECT_NE(err.find("removed by the next run that reaches it"),
            std::string::npos)
      << err;
  EXPECT_EQ(Read("y"), "consume([produce(1,)],)");
}

TEST_F(EngineFaultsTest, GsOffTakesAHostWhoseConnectionEndedUnnoticedForLost) {
  FakeHost& a = AddHost("a", true);
  AddHost("b", true);
  Start();
  // Nothing is asked of it: only GS_Off can notice.
  a.plan->SetDown(true);
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(engine_->Stop(), 0);
  const std::string err = ::testing::internal::GetCapturedStderr();
  // Found by its silence after the run's last removals.
  EXPECT_NE(err.find("host a was lost (injected fault: host does not answer)"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("host a did not answer again"), std::string::npos) << err;
}

// --- a hang: suspect, skipped by FTMCT, given up, used again ---

TEST_F(EngineFaultsTest, HungHostIsSuspectSkippedAndGivenUp) {
  options_.policy = "ftmct";
  FakeHost& a = AddHost("a", false, 4);
  FakeHost& b = AddHost("b", false, 1);
  a.plan->set_heartbeat(0.1, 30);  // gives up only after 30 s of silence
  Start();
  // As if a had been silent for 5 s already: past one heartbeat plus the
  // RTT bound, so it is suspect (not yet given up). The plan's change
  // reaches the engine thread before the submissions below do.
  a.plan->Hang(/*silent_for=*/5);
  for (int i = 0; i < 4; ++i) Produce(("f" + std::to_string(i)).c_str(), i);
  engine_->Barrier();
  EXPECT_EQ(Submitted(b), 4) << "FTMCT gave jobs to a suspect host";
  EXPECT_EQ(a.plan->submits(), 0);
  a.plan->Resume();
  EXPECT_EQ(engine_->Stop(), 0);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(Read("f" + std::to_string(i)),
              "produce(" + std::to_string(i) + ",)");
  }
}

TEST_F(EngineFaultsTest, HangPastTheHeartbeatTimeoutFailsItsJobsOver) {
  FakeHost& a = AddHost("a", false, 1);
  FakeHost& b = AddHost("b", false, 1);
  a.plan->set_heartbeat(0.05, 0.3);
  a.log.hold = true;  // a's job is running when the host hangs
  Start();
  Produce("x", 1);  // on a
  ASSERT_TRUE(a.log.WaitRunning(1));
  a.plan->Hang();
  // After 0.3 s of silence a is given up; its job reruns on b.
  ASSERT_TRUE(WaitFor(b, [](auto& log) { return log.submitted.size() >= 1; }));
  engine_->Barrier();
  EXPECT_EQ(Read("x"), "");  // final versions are placed at GS_Off
  a.plan->Resume();
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_EQ(Read("x"), "produce(1,)");
}

// --- a lost file: its producer runs again ---

TEST_F(EngineFaultsTest, LostFileIsRecomputed) {
  FakeHost& a = AddHost("a", true);
  AddHost("b", true);
  Start();
  Produce("x", 1);  // on a
  engine_->Barrier();
  // Whatever a's copy of x is called, it is gone.
  for (const auto& e : fs::recursive_directory_iterator(dir_ / "a")) {
    if (e.path().filename().string().find("-x") != std::string::npos) {
      a.plan->LoseFile(e.path().string());
    }
  }
  // The master reads x: the fetch from a fails, x is recomputed, then read.
  auto fd = engine_->Open((dir_ / "x").c_str(), R);
  ASSERT_TRUE(fd.ok()) << fd.status().ToString();
  char buf[64];
  ssize_t n = ::read(*fd, buf, sizeof buf);
  ASSERT_TRUE(engine_->Close(*fd).ok());
  EXPECT_EQ(std::string(buf, n > 0 ? n : 0), "produce(1,)");
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_EQ(Attempts(a, "produce") + Attempts(*hosts_[1], "produce"), 2)
      << "the producer of the lost copy did not run again";
}

// --- replication ---

TEST_F(EngineFaultsTest, ReplicaOnAnIdleHostWinsAndTheSlowInstanceIsDropped) {
  options_.policy = "wqr-ft";
  FakeHost& a = AddHost("a", false);
  FakeHost& b = AddHost("b", false);
  a.log.hold = true;  // a is slow: its instance never finishes by itself
  Start();
  Produce("x", 1);  // on a (first free host); then b is idle: a replica
  engine_->Barrier();
  EXPECT_EQ(Attempts(b, "produce"), 1) << "no replica ran on the idle host";
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_EQ(Read("x"), "produce(1,)");
  // The replica wrote beside the version file and moved it into place:
  // nothing of it is left over.
  for (const auto& e : fs::recursive_directory_iterator(dir_)) {
    EXPECT_EQ(e.path().string().find(".replica"), std::string::npos)
        << e.path();
  }
}

TEST_F(EngineFaultsTest, WithoutReplicationAnIdleHostStaysIdle) {
  options_.policy = "mct";
  FakeHost& a = AddHost("a", false);
  FakeHost& b = AddHost("b", false);
  a.log.hold = true;
  Start();
  Produce("x", 1);
  ASSERT_TRUE(a.log.WaitRunning(1));
  EXPECT_EQ(Submitted(b), 0);
  a.log.ReleaseAll();
  EXPECT_EQ(engine_->Stop(), 0);
}

TEST_F(EngineFaultsTest, ReplicaSurvivesTheLossOfTheFirstInstancesHost) {
  options_.policy = "wqr-ft";
  options_.retries.infra = 0;  // the task would fail if it had to retry
  FakeHost& a = AddHost("a", false);
  FakeHost& b = AddHost("b", false);
  a.log.hold = true;
  b.log.hold = true;
  Start();
  Produce("x", 1);
  ASSERT_TRUE(a.log.WaitRunning(1));
  ASSERT_TRUE(b.log.WaitRunning(1)) << "no replica";
  a.plan->SetDown(true);  // the first instance is lost with its host
  b.log.ReleaseAll();
  EXPECT_EQ(engine_->Stop(), 0) << "the replica did not carry the task";
  EXPECT_EQ(Read("x"), "produce(1,)");
}

// What the observers hear of a host's jobs, counted as the page counts
// them: a job sent queued is not running until OnJobRunning.
class OccupancyWatch : public RunObserver {
 public:
  void OnJobStarted(const JobStart& job) override {
    std::lock_guard<std::mutex> lock(mu_);
    slots_ = job.slots;
    if (job.queued) {
      queued_.insert(job.job);
    } else {
      Run();
    }
  }
  void OnJobRunning(const JobStart& job) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (queued_.erase(job.job) > 0) Run();
  }
  void OnJobEnded(const JobRecord& job) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (queued_.erase(job.job) == 0) --running_;
  }
  // Running, queued, the most running at once and the host's slots.
  std::array<int, 4> Counts() {
    std::lock_guard<std::mutex> lock(mu_);
    return {running_, static_cast<int>(queued_.size()), most_, slots_};
  }

 private:
  void Run() { most_ = std::max(most_, ++running_); }
  std::mutex mu_;
  std::set<JobId> queued_;
  int running_ = 0, most_ = 0, slots_ = 0;
};

// Issue 36: with prefetch, a 1-slot host showed "50% of 2 slots" and the
// page "running 2". Jobs sent ahead wait in the host's queue: running never
// exceeds the slots, and utilization is of the host's 1 slot, at most 100%.
TEST_F(EngineFaultsTest, PrefetchedJobsAreQueuedOnTheHostNotRunning) {
  options_.policy = "mct";
  auto summary = std::make_shared<SummaryObserver>(nullptr);
  auto watch = std::make_shared<OccupancyWatch>();
  options_.observers = {summary, watch};
  FakeHost& a = AddHost("a", false);
  a.declared = true;  // `slots: 1`
  a.prefetch = 2;
  a.log.hold = true;  // the fake starts jobs when sent, as if never queued
  Start();
  for (int i = 0; i < 4; ++i) Produce(("f" + std::to_string(i)).c_str(), i);
  ASSERT_TRUE(a.log.WaitRunning(3)) << "a was not sent its prefetch";
  std::array<int, 4> counts = watch->Counts();
  EXPECT_EQ(counts[0], 1) << "running";
  EXPECT_EQ(counts[1], 2) << "queued on the host";
  EXPECT_EQ(counts[3], 1) << "slots";
  a.log.ReleaseAll();
  engine_->Barrier();
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_EQ(engine_->stats().queued_on_hosts, 0u);
  EXPECT_LE(watch->Counts()[2], 1) << "more running at once than slots";
  RunReport r = summary->Report();
  ASSERT_EQ(r.hosts.size(), 1u);
  EXPECT_EQ(r.hosts[0].slots, 1);
  EXPECT_GT(r.hosts[0].utilization, 0);
  EXPECT_LE(r.hosts[0].utilization, 1.0 + 1e-9);
  EXPECT_NE(FormatSummaryAdditions(r).find("% of 1 slots"), std::string::npos)
      << FormatSummaryAdditions(r);
}

}  // namespace
}  // namespace gs

namespace gs {
namespace {

TEST_F(EngineFaultsTest, DynamicReplicationPrefersHostsThatSucceed) {
  options_.policy = "wqdr-ft";
  options_.retries.infra = 10;
  FakeHost& a = AddHost("a", false);
  FakeHost& b = AddHost("b", false);
  a.plan->FailNextSubmits(3, HostFailed{"flaky"});
  Start();
  // a fails three jobs (b takes them over): its success rate drops below
  // b's, so later tasks go to b first even though a comes first by index.
  for (int i = 0; i < 3; ++i) Produce(("w" + std::to_string(i)).c_str(), i);
  engine_->Barrier();
  {
    std::lock_guard<std::mutex> lock(b.log.mu);
    b.log.hold = true;  // b's next job stays running: a gets the replica
  }
  Produce("last", 9);
  ASSERT_TRUE(b.log.WaitRunning(1)) << "the new task did not go to b first";
  b.log.ReleaseAll();
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_EQ(Read("last"), "produce(9,)");
}

}  // namespace
}  // namespace gs

namespace gs {
namespace {

// A host whose jobs wait in a batch queue before they start.
class QueuedFake : public FakeAdapter {
 public:
  using FakeAdapter::FakeAdapter;
  Seconds expected_start_delay() const override { return 1000; }
};

TEST_F(EngineFaultsTest, ExpectedQueueWaitSteersMctToAHostThatStartsAtOnce) {
  options_.policy = "mct";
  FakeHost queued;
  FakeHost& b = AddHost("b", false);
  engine_ = std::make_unique<Engine>(options_);
  std::vector<HostSetup> setups;
  setups.push_back(
      HostSetup{"queued",
                [&queued](boost::asio::io_context& io, Clock& clock) {
                  return std::make_unique<QueuedFake>(io, clock, 4, &queued.log,
                                                      "", "queued");
                },
                "/no/worker"});
  setups.push_back(HostSetup{"b",
                             [&b](boost::asio::io_context& io, Clock& clock) {
                               return std::make_unique<FakeAdapter>(
                                   io, clock, 1, &b.log, "", "b");
                             },
                             "/no/worker"});
  ASSERT_TRUE(engine_->Start(std::move(setups)).ok());
  // Both hosts are free; without the queue wait the first host (more
  // slots, lowest index) would take it.
  Produce("x", 1);
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_EQ(Submitted(b), 1);
  EXPECT_EQ(Submitted(queued), 0);
}

// --- the stall watchdog ---

// Places nothing, ever: the way a policy without the model it waits for
// behaves.
class RefusingPolicy : public Policy {
 public:
  std::string_view name() const override { return "refuses"; }
  Choice Choose(const ReadyTask&, const SlotBoard&, const Predictor&) override {
    return {};
  }
};

TEST_F(EngineFaultsTest, PolicyThatRefusesToPlaceFailsCleanlyInsteadOfHanging) {
  options_.policy = "refuses";
  options_.hooks.make_policy = [] {
    return std::make_unique<RefusingPolicy>();
  };
  options_.stall_timeout = 0.3;
  options_.quiet = true;
  FakeHost& a = AddHost("a", false, 2);
  std::ofstream(dir_ / "input") << "in";
  Start();
  Produce("x", 1);
  Consume("x", "y");          // futile once x's producer fails
  Consume("input", "other");  // ready too: failed with it
  auto stop = std::async(std::launch::async, [&] { return engine_->Stop(); });
  if (stop.wait_for(std::chrono::seconds(20)) != std::future_status::ready) {
    std::fprintf(stderr, "the run hung: no stall was detected\n");
    std::_Exit(1);  // the engine thread cannot be joined
  }
  EXPECT_NE(stop.get(), 0);
  const RunStats& stats = engine_->stats();
  EXPECT_EQ(stats.failed, 2u);
  EXPECT_EQ(stats.futile, 1u);
  EXPECT_EQ(Submitted(a), 0);
  std::string note;
  for (const std::string& n : stats.notes) {
    if (n.find("the run stalled") != std::string::npos) note += n;
  }
  ASSERT_FALSE(note.empty()) << "no stall message in the summary";
  EXPECT_NE(note.find("policy 'refuses'"), std::string::npos) << note;
  EXPECT_NE(note.find("task 0 (produce)"), std::string::npos) << note;
  EXPECT_NE(note.find("task 2 (consume)"), std::string::npos) << note;
  EXPECT_NE(note.find("a (up, 2 free slots)"), std::string::npos) << note;
}

TEST_F(EngineFaultsTest, StalledSynchronousWaitEndsWithAnError) {
  options_.hooks.make_policy = [] {
    return std::make_unique<RefusingPolicy>();
  };
  options_.stall_timeout = 0.2;
  options_.quiet = true;
  AddHost("a", false);
  Start();
  TaskId t = Produce("x", 1);
  auto wait = std::async(std::launch::async, [&] {
    return engine_->WaitForResults(t, nullptr, nullptr);
  });
  if (wait.wait_for(std::chrono::seconds(20)) != std::future_status::ready) {
    std::fprintf(stderr, "the master's wait hung: no stall was detected\n");
    std::_Exit(1);
  }
  Status s = wait.get();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("stalled"), std::string::npos) << s.message();
  EXPECT_NE(engine_->Stop(), 0);
}

// Hears the quiet-run report (bounded wait).
class QuietListener : public RunObserver {
 public:
  void OnEvent(const RunEvent& event) override {
    if (event.kind != "quiet") return;
    std::lock_guard<std::mutex> lock(mu_);
    if (detail_.empty()) detail_ = event.detail;
    cv_.notify_all();
  }
  std::string Await(std::chrono::seconds bound) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait_for(lock, bound, [&] { return !detail_.empty(); });
    return detail_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::string detail_;
};

TEST_F(EngineFaultsTest, AJobThatNeverEndsIsReportedNotFailed) {
  options_.stall_timeout = 0.2;
  options_.quiet = true;
  auto listener = std::make_shared<QuietListener>();
  options_.observers.push_back(listener);
  FakeHost& a = AddHost("a", false);
  a.log.hold = true;  // the job runs until released: nobody hears of it
  Start();
  Produce("x", 1);
  ASSERT_TRUE(a.log.WaitRunning(1));
  const std::string report = listener->Await(std::chrono::seconds(20));
  ASSERT_FALSE(report.empty()) << "no quiet-run report";
  EXPECT_NE(report.find("nothing has started or ended for"), std::string::npos)
      << report;
  EXPECT_NE(report.find("task 0 (produce) on a for"), std::string::npos)
      << report;
  EXPECT_NE(report.find("a (up"), std::string::npos) << report;
  a.log.ReleaseAll();
  EXPECT_EQ(engine_->Stop(), 0);  // reported, not failed
  EXPECT_EQ(engine_->stats().failed, 0u);
}

// --- one master per work directory ---

TEST_F(EngineFaultsTest, SecondMasterInTheSameWorkDirIsRefusedAtStart) {
  AddHost("a", false);
  Start();
  Produce("x", 1);
  engine_->Barrier();
  FakeAdapter::Log other_log;
  Engine second(options_);
  std::vector<HostSetup> setups;
  setups.push_back(HostSetup{"b",
                             [&](boost::asio::io_context& io, Clock& clock) {
                               return std::make_unique<FakeAdapter>(
                                   io, clock, 1, &other_log, "", "b");
                             },
                             "/no/worker"});
  Status s = second.Start(std::move(setups));
  ASSERT_FALSE(s.ok()) << "two masters share " << options_.work_dir;
  EXPECT_NE(s.message().find("pid " + std::to_string(::getpid())),
            std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find(options_.work_dir), std::string::npos)
      << s.message();
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_EQ(Read("x"), "produce(1,)") << "the second master touched x";
}

// --- what the user reads (issue 13) ---

// The adapter names a missing output by the path it was given (a data
// version, on a host with its own data dir); the user reads the name the
// program passed, and the file left alone is named the same way.
TEST_F(EngineFaultsTest, MissingOutputIsNamedAsTheProgramNamedIt) {
  options_.retries.app = 0;
  options_.quiet = true;
  FakeHost& a = AddHost("a", /*remote=*/true);
  a.log.script["produce"].forget_outputs = true;
  Start();
  Produce("out/x.txt", 1);
  EXPECT_NE(engine_->Stop(), 0);
  const RunStats& stats = engine_->stats();
  ASSERT_EQ(stats.failures.size(), 1u);
  EXPECT_EQ(stats.failures[0].error,
            "declared output 'out/x.txt' (parameter 0) was not written");
  bool named = false;
  for (const std::string& note : stats.notes) {
    named |= note.starts_with("out/x.txt was not updated");
  }
  EXPECT_TRUE(named) << "no note names out/x.txt";
}

// A staging failure names the input as the program did, not by its path.
TEST_F(EngineFaultsTest, StagingFailureNamesTheInputAsTheProgramDid) {
  options_.retries.infra = 0;
  options_.quiet = true;
  AddHost("b", /*remote=*/true);
  // A directory where the input should be: it exists, so it is sent, and
  // the copy fails. (An input that does not exist is not sent: the job
  // starts without it, as a sequential run would.)
  std::filesystem::create_directories(dir_ / "in" / "odd.txt");
  Start();
  Consume("in/odd.txt", "out.txt");
  EXPECT_NE(engine_->Stop(), 0);
  const RunStats& stats = engine_->stats();
  ASSERT_EQ(stats.failures.size(), 1u);
  const std::string& error = stats.failures[0].error;
  EXPECT_NE(error.find("copy in/odd.txt: "), std::string::npos) << error;
  EXPECT_EQ(error.find(dir_.string()), std::string::npos) << error;
  EXPECT_EQ(stats.failures[0].call, "consume(in/odd.txt, out.txt)");
}

// --- the master's own files in a failed run ---

TEST_F(EngineFaultsTest,
       FileTheMasterWroteSurvivesAFailedTaskThatSupersedesIt) {
  options_.retries.app = 0;
  options_.quiet = true;
  FakeHost& a = AddHost("a", false);
  a.log.script["produce"].exit_code = 3;
  Start();
  auto fd = engine_->Open("report", W);
  ASSERT_TRUE(fd.ok()) << fd.status().ToString();
  ASSERT_EQ(::write(*fd, "header\n", 7), 7);
  ASSERT_TRUE(engine_->Close(*fd).ok());
  Produce("report", 1);  // writes the next version, and fails
  EXPECT_NE(engine_->Stop(), 0);
  EXPECT_EQ(Read("report"), "header\n") << "what the master wrote is lost";
  bool told = false;
  for (const std::string& note : engine_->stats().notes) {
    told |= note.find(
                "report: the task that writes its last version did "
                "not succeed; it holds what the program itself last "
                "wrote") != std::string::npos;
  }
  EXPECT_TRUE(told);
}

// --- prefetch: jobs queued on a host beyond its slots ---

TEST_F(EngineFaultsTest, PrefetchedJobsOfALostHostRunElsewhere) {
  options_.policy = "mct";
  FakeHost& a = AddHost("a", false);
  a.prefetch = 2;
  FakeHost& b = AddHost("b", false);
  a.log.hold = true;
  b.log.hold = true;
  Start();
  for (int i = 0; i < 4; ++i) Produce(("f" + std::to_string(i)).c_str(), i);
  // One job runs on each host's slot; a queues two more, b (no prefetch)
  // none.
  ASSERT_TRUE(a.log.WaitRunning(3)) << "a was not sent its prefetch";
  ASSERT_TRUE(b.log.WaitRunning(1));
  EXPECT_EQ(Submitted(a), 3);
  EXPECT_EQ(Submitted(b), 1);
  // Losing a fails its running job and its two queued ones alike: all three
  // run again on b.
  a.plan->SetDown(true);
  b.log.ReleaseAll();
  engine_->Barrier();
  EXPECT_EQ(Submitted(b), 4);
  a.plan->SetDown(false);
  EXPECT_EQ(engine_->Stop(), 0);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(Read("f" + std::to_string(i)),
              "produce(" + std::to_string(i) + ",)");
  }
}

// Once a host's jobs are known to be short, its queue deepens to hold the
// window's worth of work per slot (at most kMaxPrefetchPerSlot per slot).
TEST_F(EngineFaultsTest, ShortJobsDeepenAHostsPrefetchToItsWindow) {
  options_.policy = "mct";
  FakeHost& a = AddHost("a", false);
  a.prefetch = 1;
  // The fake counts a queued job's wait in its run time (it starts jobs
  // when submitted): a window of 1 s keeps a loaded machine from mattering.
  a.prefetch_window = 1;
  Start();
  // Before any job ended there, its depth is `prefetch`.
  auto hold = [&] {
    std::lock_guard<std::mutex> lock(a.log.mu);
    a.log.hold = true;
  };
  hold();
  Produce("first", 0);
  Produce("second", 1);
  Produce("third", 2);
  ASSERT_TRUE(a.log.WaitRunning(2));
  EXPECT_EQ(Submitted(a), 2) << "one running, one queued";
  a.log.ReleaseAll();
  engine_->Barrier();
  // Unheld, the fake's jobs end at once: after these the mean job time
  // (weight 0.2 on the newest) is a small fraction of the held ones' and
  // of the window (16 jobs of it would be 62 ms), so the cap decides.
  for (int i = 0; i < 40; ++i) Produce(("q" + std::to_string(i)).c_str(), i);
  engine_->Barrier();
  hold();
  for (int i = 0; i < 40; ++i) Produce(("f" + std::to_string(i)).c_str(), i);
  const int depth = kMaxPrefetchPerSlot;
  ASSERT_TRUE(a.log.WaitRunning(1 + depth)) << "the queue did not deepen";
  EXPECT_EQ(Submitted(a), 3 + 40 + 1 + depth) << "no deeper than the cap";
  a.log.ReleaseAll();
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_EQ(Read("f39"), "produce(39,)");
}

}  // namespace
}  // namespace gs
