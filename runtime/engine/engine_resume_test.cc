// Resume with a scripted adapter: a run is "killed" (its engine destroyed
// without GS_Off, so its run never ends and its data dir stays), a new
// engine runs the same program in the same directory and reuses what the
// journal says finished, without running it again.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "runtime/engine/engine.h"
#include "runtime/history/history.h"
#include "tests/support/fake_adapter.h"
#include "tests/support/fake_operations.h"

namespace gs {
namespace {

namespace fs = std::filesystem;
using testing::FakeAdapter;
using testing::kConsume;
using testing::kMeasure;
using testing::kProduce;

class EngineResumeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("gsrt-resume-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    engine_.reset();
    fs::remove_all(dir_);
  }

  // `remote`: the host does not share the master's files.
  void Start(bool remote = false, bool resume = true) {
    Status s = TryStart(remote, resume);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }
  Status TryStart(bool remote = false, bool resume = true) {
    log_.submitted.clear();
    EngineOptions options;
    options.resume = resume;
    if (identity_later_) {
      options.code_identity_of = [worker = worker_] {
        return CodeIdentity{worker, nullptr};
      };
    } else {
      options.code_identity.worker = worker_;
    }
    options.cwd = dir_.string();
    options.work_dir = (dir_ / ".gsrt").string();
    options.history_path = (dir_ / ".gsrt" / "history.db").string();
    options.program = "/bin/resume-test";
    engine_ = std::make_unique<Engine>(options);
    std::string remote_dir = remote ? (dir_ / "host").string() : "";
    std::vector<HostSetup> hosts;
    hosts.push_back(HostSetup{
        "node",
        [this, remote_dir](boost::asio::io_context& io, Clock& clock) {
          return std::make_unique<FakeAdapter>(io, clock, 4, &log_, remote_dir,
                                               "node");
        },
        "/no/worker",
        {}});
    return engine_->Start(std::move(hosts));
  }
  // The master dies: no GS_Off, so the run stays "running" in the history
  // and its versions stay in the data dir. (The history commits what was
  // recorded, as the periodic flush would have.)
  void Kill() { engine_.reset(); }

  void Produce(const char* file, int n) {
    gs_arg args[2] = {};
    args[0].str = file;
    args[1].i = n;
    engine_->Submit(&kProduce, args);
  }
  void Consume(const char* in, const char* out) {
    gs_arg args[2] = {};
    args[0].str = in;
    args[1].str = out;
    engine_->Submit(&kConsume, args);
  }
  std::vector<std::string> Ran() {
    std::lock_guard<std::mutex> lock(log_.mu);
    std::vector<std::string> ops;
    for (const JobSpec& s : log_.submitted) ops.push_back(s.operation);
    return ops;
  }
  std::string Read(const std::string& name) {
    std::ifstream in(dir_ / name, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  std::vector<JournalEntry> Journal(RunId run) {
    auto history = History::Open((dir_ / ".gsrt" / "history.db").string());
    EXPECT_TRUE(history.ok());
    if (!history.ok()) return {};
    auto entries = (*history)->LoadJournal(run);
    EXPECT_TRUE(entries.ok());
    return entries.ok() ? *entries : std::vector<JournalEntry>{};
  }
  // Waits (bounded) until the history holds `n` batch jobs of `run`: they
  // are committed with the engine's periodic flush.
  bool WaitQueuedJobs(RunId run, size_t n) {
    auto history = History::Open((dir_ / ".gsrt" / "history.db").string());
    if (!history.ok()) return false;
    for (int i = 0; i < 100; ++i) {
      auto jobs = (*history)->LoadQueuedJobs(run);
      if (jobs.ok() && jobs->size() >= n) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }
  // The version files in the master's data dir whose name ends in `base`.
  std::vector<fs::path> DataFiles(const std::string& base) {
    std::vector<fs::path> found;
    for (const auto& e : fs::directory_iterator(dir_ / ".gsrt" / "data")) {
      std::string name = e.path().filename().string();
      if (name.size() > base.size() &&
          name.compare(name.size() - base.size(), base.size(), base) == 0)
        found.push_back(e.path());
    }
    return found;
  }

  fs::path dir_;
  std::string worker_ = "w:1";   // the worker binary's identity
  bool identity_later_ = false;  // computed while the hosts connect
  FakeAdapter::Log log_;
  std::unique_ptr<Engine> engine_;
};

TEST_F(EngineResumeTest, FinishedTasksAreNotRunAgain) {
  Start();
  Produce("a", 1);
  Consume("a", "b");
  engine_->Barrier();
  {
    std::lock_guard<std::mutex> lock(log_.mu);
    log_.hold = true;  // the next job is running when the master dies
  }
  Consume("b", "c");
  ASSERT_TRUE(log_.WaitRunning(1));
  Kill();

  log_.hold = false;
  Start();
  Produce("a", 1);
  Consume("a", "b");
  Consume("b", "c");
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_EQ(Ran(), (std::vector<std::string>{"consume"}));
  EXPECT_EQ(Read("a"), "produce(1,)");
  EXPECT_EQ(Read("b"), "consume([produce(1,)],)");
  EXPECT_EQ(Read("c"), "consume([consume([produce(1,)],)],)");
  // The second run journals the reused tasks too (so a third run can
  // resume it), saying where their outputs came from.
  std::vector<JournalEntry> first = Journal(1), second = Journal(2);
  ASSERT_EQ(first.size(), 2u);
  ASSERT_EQ(second.size(), 3u);
  EXPECT_EQ(second[0].reused_from, 1);
  EXPECT_EQ(second[1].reused_from, 1);
  EXPECT_EQ(second[2].reused_from, 0);
  EXPECT_EQ(second[0].signature, first[0].signature);
  EXPECT_EQ(second[1].signature, first[1].signature);
}

TEST_F(EngineResumeTest, ABatchJobRunningWhenTheMasterDiedIsTakenOver) {
  log_.batch = true;
  Start();
  Produce("a", 1);
  engine_->Barrier();
  {
    std::lock_guard<std::mutex> lock(log_.mu);
    log_.hold = true;  // in the queue when the master dies
  }
  Consume("a", "b");
  ASSERT_TRUE(log_.WaitRunning(1));
  ASSERT_TRUE(WaitQueuedJobs(1, 2));
  Kill();

  log_.hold = false;
  Start();
  Produce("a", 1);
  Consume("a", "b");
  EXPECT_EQ(engine_->Stop(), 0);
  // Nothing ran again: the consume's job of run 1 ("b2": job numbers go
  // on across runs, so it is the second) was taken over.
  EXPECT_EQ(Ran(), std::vector<std::string>{});
  EXPECT_EQ(log_.adopted, std::vector<std::string>{"b2"});
  EXPECT_EQ(Read("b"), "consume([produce(1,)],)");
  auto history = History::Open((dir_ / ".gsrt" / "history.db").string());
  ASSERT_TRUE(history.ok());
  auto first = (*history)->LoadQueuedJobs(1);
  auto second = (*history)->LoadQueuedJobs(2);
  ASSERT_TRUE(first.ok() && second.ok());
  ASSERT_EQ(first->size(), 2u);
  ASSERT_EQ(second->size(), 1u);
  EXPECT_EQ((*second)[0].job.batch_id, "b2");
  EXPECT_TRUE((*second)[0].job.adopted);
  // Newest job first: b2's task was the later of the two.
  EXPECT_EQ((*first)[0].job.batch_id, "b2");
  EXPECT_EQ((*second)[0].signature, (*first)[0].signature);
  EXPECT_FALSE((*first)[0].job.adopted);
}

// The master dies after the queue accepted a job but before it learnt the
// id: the job was recorded before the submission, and the restarted run
// hands it to the adapter to take over without an id (the batch adapter
// then voids it or finds the job by its claim: batch_claim.h).
TEST_F(EngineResumeTest, AJobBeingSubmittedWhenTheMasterDiedIsHandedOver) {
  log_.batch = true;
  Start();
  Produce("a", 1);
  engine_->Barrier();
  {
    std::lock_guard<std::mutex> lock(log_.mu);
    log_.submission_hole = true;
  }
  Consume("a", "b");
  ASSERT_TRUE(log_.WaitRunning(1));
  // Committed by the recorder itself, not by a later flush.
  auto history = History::Open((dir_ / ".gsrt" / "history.db").string());
  ASSERT_TRUE(history.ok());
  auto jobs = (*history)->LoadQueuedJobs(1);
  ASSERT_TRUE(jobs.ok());
  ASSERT_FALSE(jobs->empty());
  EXPECT_EQ((*jobs)[0].job.batch_id, "");
  EXPECT_EQ((*jobs)[0].job.dir, "d2");
  history->reset();
  Kill();

  {
    std::lock_guard<std::mutex> lock(log_.mu);
    log_.submission_hole = false;
  }
  Start();
  Produce("a", 1);
  Consume("a", "b");
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_EQ(Ran(), std::vector<std::string>{});
  EXPECT_EQ(log_.adopted, std::vector<std::string>{"submitting d2"});
  EXPECT_EQ(Read("b"), "consume([produce(1,)],)");
}

TEST_F(EngineResumeTest, BatchJobsNoTaskTakesOverAreCancelled) {
  log_.batch = true;
  Start();
  {
    std::lock_guard<std::mutex> lock(log_.mu);
    log_.hold = true;
  }
  Produce("a", 1);
  ASSERT_TRUE(log_.WaitRunning(1));
  ASSERT_TRUE(WaitQueuedJobs(1, 1));
  Kill();

  log_.hold = false;
  Start();
  Produce("a", 2);  // another call: the old job is not this task's
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_EQ(Ran(), std::vector<std::string>{"produce"});
  EXPECT_TRUE(log_.adopted.empty());
  EXPECT_EQ(log_.forgotten, std::vector<std::string>{"b1"});
  EXPECT_EQ(Read("a"), "produce(2,)");
}

TEST_F(EngineResumeTest, AFinishedRunIsNotResumed) {
  Start();
  Produce("a", 1);
  EXPECT_EQ(engine_->Stop(), 0);
  Start();
  Produce("a", 1);
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_EQ(Ran(), (std::vector<std::string>{"produce"}));
}

TEST_F(EngineResumeTest, ResumeOffStartsFromScratch) {
  Start();
  Produce("a", 1);
  engine_->Barrier();
  Kill();
  Start(/*remote=*/false, /*resume=*/false);
  Produce("a", 1);
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_EQ(Ran(), (std::vector<std::string>{"produce"}));
  EXPECT_EQ(Read("a"), "produce(1,)");
}

TEST_F(EngineResumeTest, ALiveMasterInTheWorkDirRefusesTheNextOne) {
  Start();
  Produce("a", 1);
  engine_->Barrier();
  Kill();
  // Another master holds the work dir's lock: its run is not interrupted,
  // and this master must not touch its files.
  int fd = ::open((dir_ / ".gsrt" / "lock").c_str(), O_RDWR | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);
  Status refused = TryStart();
  EXPECT_EQ(refused.code(), Status::Code::kUnavailable) << refused.ToString();
  EXPECT_NE(refused.message().find("another master"), std::string::npos)
      << refused.message();
  engine_.reset();
  ::close(fd);
  // Once it has ended, its run is resumed.
  Start();
  Produce("a", 1);
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_EQ(Ran(), (std::vector<std::string>{}));
  EXPECT_EQ(Read("a"), "produce(1,)");
}

TEST_F(EngineResumeTest, ChangedFunctionsRunAgainAndAreCounted) {
  Start();
  Produce("a", 1);
  Consume("a", "b");
  engine_->Barrier();
  Kill();
  worker_ = "w:2";  // the user changed an operation and rebuilt
  Start();
  Produce("a", 1);
  Consume("a", "b");
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_EQ(Ran(), (std::vector<std::string>{"produce", "consume"}));
  EXPECT_EQ(engine_->stats().reused, 0u);
  EXPECT_EQ(engine_->stats().rerun_changed, 2u);
  EXPECT_NE(FormatSummary(engine_->stats(), 0)
                .find("2 tasks rerun because the functions changed"),
            std::string::npos);
  // The entries of this run carry the new worker: a third run reuses them.
  for (const JournalEntry& e : Journal(2)) EXPECT_EQ(e.worker, "w:2");
}

TEST_F(EngineResumeTest, AnIdentityComputedWhileTheHostsConnectIsJournaled) {
  identity_later_ = true;
  worker_ = "w:late";
  Start();
  Produce("a", 1);
  Consume("a", "b");
  engine_->Barrier();
  Kill();
  const std::vector<JournalEntry> journaled = Journal(1);
  EXPECT_EQ(journaled.size(), 2u);
  for (const JournalEntry& e : journaled) EXPECT_EQ(e.worker, "w:late");
  identity_later_ = false;
  Start();
  Produce("a", 1);
  Consume("a", "b");
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_EQ(engine_->stats().reused, 2u);
  EXPECT_EQ(Ran(), std::vector<std::string>{});
}

TEST_F(EngineResumeTest, ChangedInputsOrArgumentsRunAgain) {
  std::ofstream(dir_ / "in") << "x";
  std::ofstream(dir_ / "keep") << "k";
  Start();
  Consume("in", "out");
  Consume("keep", "kept");
  Produce("p", 1);
  engine_->Barrier();
  Kill();
  std::ofstream(dir_ / "in") << "y";  // the user edits an input
  Start();
  Consume("in", "out");
  Consume("keep", "kept");  // same contents: reused
  Produce("p", 2);          // and changes an argument
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_EQ(Ran(), (std::vector<std::string>{"consume", "produce"}));
  EXPECT_EQ(Read("out"), "consume([y],)");
  EXPECT_EQ(Read("kept"), "consume([k],)");
  EXPECT_EQ(Read("p"), "produce(2,)");
}

TEST_F(EngineResumeTest, OutputsWhoseDataIsGoneAreMadeAgainOnlyWhenNeeded) {
  Start();
  Produce("a", 1);
  Consume("a", "b");
  engine_->Barrier();
  Kill();
  // The data of a's version is gone (as if collected); b's is there.
  auto a_files = DataFiles("-a");
  ASSERT_EQ(a_files.size(), 1u);
  fs::remove(a_files[0]);

  Start();
  Produce("a", 1);    // reused without data
  Consume("a", "b");  // reused: does not need a's data
  engine_->Barrier();
  EXPECT_TRUE(Ran().empty());
  Consume("a", "c");  // new: needs a, whose producer runs again first
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_EQ(Ran(), (std::vector<std::string>{"produce", "consume"}));
  EXPECT_EQ(Read("a"), "produce(1,)");
  EXPECT_EQ(Read("b"), "consume([produce(1,)],)");
  EXPECT_EQ(Read("c"), "consume([produce(1,)],)");
}

TEST_F(EngineResumeTest, AFinalVersionWithoutDataIsMadeAgainAtTheEnd) {
  Start();
  Produce("a", 1);
  engine_->Barrier();
  Kill();
  for (const fs::path& f : DataFiles("-a")) fs::remove(f);
  Start();
  Produce("a", 1);
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_EQ(Ran(), (std::vector<std::string>{"produce"}));
  EXPECT_EQ(Read("a"), "produce(1,)");
}

TEST_F(EngineResumeTest, AChainWithoutDataIsMadeAgainAtTheEnd) {
  Start();
  Produce("a", 1);
  Consume("a", "b");
  engine_->Barrier();
  Kill();
  for (const char* base : {"-a", "-b"})
    for (const fs::path& f : DataFiles(base)) fs::remove(f);
  Start();
  Produce("a", 1);
  Consume("a", "b");
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_EQ(Ran(), (std::vector<std::string>{"produce", "consume"}));
  EXPECT_EQ(Read("a"), "produce(1,)");
  EXPECT_EQ(Read("b"), "consume([produce(1,)],)");
}

TEST_F(EngineResumeTest, SynchronousResultsComeFromTheJournal) {
  log_.script["measure"].results = "0x1.8p+1\n42\n";
  Start();
  Produce("a", 1);
  gs_arg args[2] = {};
  int count = 0;
  double value = 0;
  args[0].str = "a";
  args[1].ptr = &count;
  TaskId t = engine_->Submit(&kMeasure, args);
  ASSERT_TRUE(engine_->WaitForResults(t, args, &value).ok());
  Kill();
  log_.script["measure"].results = "0x1p+0\n1\n";  // a rerun would say this
  Start();
  Produce("a", 1);
  count = 0;
  value = 0;
  t = engine_->Submit(&kMeasure, args);
  ASSERT_TRUE(engine_->WaitForResults(t, args, &value).ok());
  EXPECT_EQ(value, 3.0);
  EXPECT_EQ(count, 42);
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_TRUE(Ran().empty());
}

TEST_F(EngineResumeTest, OutputsLeftOnAnotherHostAreFetched) {
  Start(/*remote=*/true);
  Produce("a", 1);
  Consume("a", "b");
  engine_->Barrier();
  Kill();
  {
    std::lock_guard<std::mutex> lock(log_.mu);
    log_.gets.clear();
  }
  Start(/*remote=*/true);
  Produce("a", 1);
  Consume("a", "b");
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_TRUE(Ran().empty());
  EXPECT_EQ(Read("a"), "produce(1,)");
  EXPECT_EQ(Read("b"), "consume([produce(1,)],)");
  std::lock_guard<std::mutex> lock(log_.mu);
  EXPECT_GE(log_.gets.size(), 2u);  // both outputs came from the host
}

// The resumed run clears the host of what the killed one left there but
// keeps what it takes over (the outputs it fetched back).
TEST_F(EngineResumeTest, TheHostIsSweptOfAllButWhatTheResumeTakesOver) {
  Start(/*remote=*/true);
  Produce("a", 1);
  Consume("a", "b");
  engine_->Barrier();
  Kill();
  std::set<std::string> left;
  for (const auto& e : fs::directory_iterator(dir_ / "host" / "data"))
    left.insert(e.path().filename().string());
  ASSERT_EQ(left.size(), 2u);  // a's and b's versions
  Start(/*remote=*/true);
  Produce("a", 1);
  Consume("a", "b");
  EXPECT_EQ(engine_->Stop(), 0);
  std::lock_guard<std::mutex> lock(log_.mu);
  // "HOST OWNER KEEP..." at the killed run's start, the second run's start
  // and its end: the first kept nothing, the second both at its start.
  ASSERT_EQ(log_.sweeps.size(), 3u);
  std::istringstream first(log_.sweeps[0]), second(log_.sweeps[1]);
  std::string host, owner1, owner2, name;
  first >> host >> owner1;
  EXPECT_EQ(host, "node");
  EXPECT_NE(owner1.find(":" + (dir_ / ".gsrt").string()), std::string::npos)
      << owner1;
  EXPECT_FALSE(first >> name) << "the first run kept " << name;
  second >> host >> owner2;
  EXPECT_EQ(owner2, owner1);
  std::set<std::string> kept;
  while (second >> name) kept.insert(name);
  EXPECT_EQ(kept, left);
}

TEST_F(EngineResumeTest, AnOutputGoneFromItsHostIsMadeAgainWhenNeeded) {
  Start(/*remote=*/true);
  Produce("a", 1);
  Consume("a", "b");
  engine_->Barrier();
  Kill();
  // The host lost a's version file (its disk was cleaned, say).
  int removed = 0;
  for (const auto& e : fs::directory_iterator(dir_ / "host" / "data")) {
    std::string name = e.path().filename().string();
    if (name.size() > 2 && name.substr(name.size() - 2) == "-a") {
      fs::remove(e.path());
      ++removed;
    }
  }
  ASSERT_EQ(removed, 1);
  Start(/*remote=*/true);
  Produce("a", 1);
  Consume("a", "b");
  Consume("a", "c");  // needs a: its producer runs again first
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_EQ(Ran(), (std::vector<std::string>{"produce", "consume"}));
  EXPECT_EQ(Read("a"), "produce(1,)");
  EXPECT_EQ(Read("b"), "consume([produce(1,)],)");
  EXPECT_EQ(Read("c"), "consume([produce(1,)],)");
}

TEST_F(EngineResumeTest, ASecondInterruptionResumesFromBoth) {
  Start();
  Produce("a", 1);
  engine_->Barrier();
  Kill();
  Start();  // resumes run 1 but dies before resubmitting anything
  Kill();
  Start();
  Produce("a", 1);
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_TRUE(Ran().empty());
  EXPECT_EQ(Read("a"), "produce(1,)");
}

}  // namespace
}  // namespace gs
