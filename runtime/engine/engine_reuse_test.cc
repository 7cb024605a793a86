// Results that last across runs (docs/reuse.md) with a scripted adapter:
// runs of one work dir end with GS_Off; with reuse on, a later run does
// only what changed, its outputs and results as if it had run.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "runtime/engine/engine.h"
#include "runtime/history/history.h"
#include "runtime/history/result_store.h"
#include "tests/support/fake_adapter.h"
#include "tests/support/fake_operations.h"

namespace gs {
namespace {

namespace fs = std::filesystem;
using testing::FakeAdapter;
using testing::kConsume;
using testing::kMeasure;
using testing::kProduce;

class EngineReuseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("gsrt-reuse-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    engine_.reset();
    fs::remove_all(dir_);
  }

  void Start(bool remote = false) {
    log_.submitted.clear();
    EngineOptions options;
    options.reuse.on = reuse_;
    options.reuse.never = never_reuse_;
    options.code_identity.worker = worker_;
    options.code_identity.of_operation = [this](const std::string& op) {
      auto it = op_code_.find(op);
      return it == op_code_.end() ? std::string() : it->second;
    };
    options.cwd = dir_.string();
    options.work_dir = (dir_ / ".gsrt").string();
    options.history_path = (dir_ / ".gsrt" / "history.db").string();
    options.program = "/bin/reuse-test";
    engine_ = std::make_unique<Engine>(options);
    std::string remote_dir = remote ? (dir_ / "host").string() : "";
    std::vector<HostSetup> hosts;
    hosts.push_back(HostSetup{
        "node",
        [this, remote_dir](boost::asio::io_context& io, Clock& clock) {
          return std::make_unique<FakeAdapter>(io, clock, 2, &log_, remote_dir,
                                               "node");
        },
        "/no/worker",
        {}});
    Status s = engine_->Start(std::move(hosts));
    ASSERT_TRUE(s.ok()) << s.ToString();
  }
  // produce(a, n); consume(a, b); consume(b, c); GS_Off.
  void Chain(int n, bool remote = false) {
    Start(remote);
    gs_arg args[2] = {};
    args[0].str = "a";
    args[1].i = n;
    engine_->Submit(&kProduce, args);
    Consume("a", "b");
    Consume("b", "c");
    EXPECT_EQ(engine_->Stop(), 0);
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
  // The tasks of the newest run in state `state`.
  int64_t TasksIn(const std::string& state) {
    auto history = History::Open((dir_ / ".gsrt" / "history.db").string());
    EXPECT_TRUE(history.ok());
    if (!history.ok()) return -1;
    auto latest = (*history)->LatestRunId();
    auto tasks = (*history)->LoadTasks(*latest);
    int64_t n = 0;
    for (const StoredTask& t : *tasks) n += t.state == state;
    return n;
  }

  fs::path dir_;
  std::string worker_ = "w:1";
  std::map<std::string, std::string> op_code_;  // operation -> its code
  bool reuse_ = true;
  std::set<std::string> never_reuse_;
  FakeAdapter::Log log_;
  std::unique_ptr<Engine> engine_;
};

const std::vector<std::string> kAll = {"produce", "consume", "consume"};

TEST_F(EngineReuseTest, ARerunWithNothingChangedRunsNothing) {
  Chain(1);
  EXPECT_EQ(Ran(), kAll);
  Chain(1);
  EXPECT_TRUE(Ran().empty());
  EXPECT_EQ(Read("a"), "produce(1,)");
  EXPECT_EQ(Read("b"), "consume([produce(1,)],)");
  EXPECT_EQ(Read("c"), "consume([consume([produce(1,)],)],)");
  EXPECT_EQ(TasksIn("reused"), 3);
  EXPECT_EQ(TasksIn("done"), 0);
}

TEST_F(EngineReuseTest, AChangedArgumentRunsItsTaskAndWhatReadsIt) {
  Chain(1);
  Chain(2);
  EXPECT_EQ(Ran(), kAll);
  EXPECT_EQ(Read("c"), "consume([consume([produce(2,)],)],)");
  // Both results are kept: going back reuses the first run's.
  Chain(1);
  EXPECT_TRUE(Ran().empty());
  EXPECT_EQ(Read("c"), "consume([consume([produce(1,)],)],)");
}

TEST_F(EngineReuseTest, AChangedInputFileRunsWhatReadsIt) {
  std::ofstream(dir_ / "in") << "one";
  Start();
  Consume("in", "b");
  Consume("b", "c");
  EXPECT_EQ(engine_->Stop(), 0);
  std::ofstream(dir_ / "in") << "two";
  Start();
  Consume("in", "b");
  Consume("b", "c");
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_EQ(Ran(), (std::vector<std::string>{"consume", "consume"}));
  EXPECT_EQ(Read("c"), "consume([consume([two],)],)");
}

TEST_F(EngineReuseTest, AnOperationThatNeverReusesRunsAndItsSameBytesCutOff) {
  never_reuse_ = {"produce"};
  Chain(1);
  Chain(1);
  // produce ran again and wrote what it wrote before: its readers, named
  // by that content, are reused (early cutoff).
  EXPECT_EQ(Ran(), std::vector<std::string>{"produce"});
  EXPECT_EQ(Read("c"), "consume([consume([produce(1,)],)],)");
}

TEST_F(EngineReuseTest, AChangedWorkerRunsEverything) {
  Chain(1);
  worker_ = "w:2";
  Chain(1);
  EXPECT_EQ(Ran(), kAll);
}

// With each operation's code known apart, a worker rebuilt with one
// function changed runs that function's tasks and what reads their
// outputs, and no more.
TEST_F(EngineReuseTest, AChangedFunctionRunsItsTasksOnly) {
  op_code_ = {{"produce", "f:p1"}, {"consume", "f:c1"}};
  Chain(1);
  worker_ = "w:2";  // the rebuilt binary
  op_code_["consume"] = "f:c2";
  Chain(1);
  EXPECT_EQ(Ran(), (std::vector<std::string>{"consume", "consume"}));
  EXPECT_EQ(TasksIn("reused"), 1);
  // produce's code changed and it writes the same bytes: its readers are
  // reused (early cutoff).
  op_code_["produce"] = "f:p2";
  Chain(1);
  EXPECT_EQ(Ran(), std::vector<std::string>{"produce"});
  EXPECT_EQ(Read("c"), "consume([consume([produce(1,)],)],)");
}

TEST_F(EngineReuseTest, ReuseOffRunsEverythingAndRecordsNothing) {
  reuse_ = false;
  Chain(1);
  reuse_ = true;
  Chain(1);
  EXPECT_EQ(Ran(), kAll);
  Chain(1);
  EXPECT_TRUE(Ran().empty());
}

TEST_F(EngineReuseTest, AResultWhoseStoredFileIsGoneRunsAgain) {
  Chain(1);
  // The store holds a, b and c; remove the one holding b's bytes.
  auto id = ResultStore::Identify((dir_ / "b").string());
  ASSERT_TRUE(id.ok());
  ResultStore store((dir_ / ".gsrt" / "store").string());
  ASSERT_TRUE(store.Remove(id->content).ok());
  Chain(1);
  // The first consume ran again and wrote the same bytes: the second
  // consume is reused.
  EXPECT_EQ(Ran(), std::vector<std::string>{"consume"});
  EXPECT_EQ(Read("c"), "consume([consume([produce(1,)],)],)");
}

TEST_F(EngineReuseTest, OutputsMadeOnAHostWithoutSharedFilesAreStored) {
  Chain(1, /*remote=*/true);
  EXPECT_EQ(Ran(), kAll);
  Chain(1, /*remote=*/true);
  EXPECT_TRUE(Ran().empty());
  EXPECT_EQ(Read("c"), "consume([consume([produce(1,)],)],)");
  EXPECT_EQ(TasksIn("reused"), 3);
}

TEST_F(EngineReuseTest, SynchronousResultsComeFromTheEntry) {
  log_.script["measure"].results = "0x1.8p+1\n42\n";
  for (int run = 0; run < 2; ++run) {
    Start();
    gs_arg args[2] = {};
    args[0].i = 0;
    gs_arg produce[2] = {};
    produce[0].str = "a";
    produce[1].i = 1;
    engine_->Submit(&kProduce, produce);
    int count = 0;
    double value = 0;
    args[0].str = "a";
    args[1].ptr = &count;
    TaskId t = engine_->Submit(&kMeasure, args);
    ASSERT_TRUE(engine_->WaitForResults(t, args, &value).ok());
    EXPECT_EQ(value, 3.0);
    EXPECT_EQ(count, 42);
    EXPECT_EQ(engine_->Stop(), 0);
    // A rerun would say this.
    log_.script["measure"].results = "0x1p+0\n1\n";
  }
  EXPECT_TRUE(Ran().empty());
}

// A run with reuse on killed mid-run: the next run resumes from its
// journal (the journal's tasks are not run again), and records its own
// results; the killed run's entries, written in batches, may be lost: a
// third run reuses what the second recorded and runs the rest, with the
// right files.
TEST_F(EngineReuseTest, AKilledRunIsResumedAndItsSuccessorsResultsLast) {
  Start();
  gs_arg args[2] = {};
  args[0].str = "a";
  args[1].i = 1;
  engine_->Submit(&kProduce, args);
  Consume("a", "b");
  engine_->Barrier();
  {
    std::lock_guard<std::mutex> lock(log_.mu);
    log_.hold = true;  // running when the master dies
  }
  Consume("b", "c");
  ASSERT_TRUE(log_.WaitRunning(1));
  engine_.reset();  // killed: no GS_Off
  log_.hold = false;

  Chain(1);
  EXPECT_EQ(Ran(), std::vector<std::string>{"consume"});  // only the last
  EXPECT_EQ(Read("c"), "consume([consume([produce(1,)],)],)");
  Chain(1);
  // The tasks the second run resumed from the journal left entries too:
  // nothing runs.
  EXPECT_TRUE(Ran().empty());
  EXPECT_EQ(TasksIn("reused"), 3);
  EXPECT_EQ(Read("c"), "consume([consume([produce(1,)],)],)");
}

}  // namespace
}  // namespace gs
