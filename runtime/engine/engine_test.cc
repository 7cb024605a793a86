// The engine end to end with a scripted adapter (no processes): file
// versions, dependencies, GS_Open in the middle, synchronous results,
// failures and retries.
#include "runtime/engine/engine.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "gs/gs.h"
#include "tests/support/fake_adapter.h"
#include "tests/support/fake_operations.h"

namespace gs {
namespace {

namespace fs = std::filesystem;
using testing::FakeAdapter;
using testing::kConsume;
using testing::kMeasure;
using testing::kProduce;

const gs_param_desc kUpdateParams[] = {{"f", GS_TYPE_FILE, GS_DIR_INOUT},
                                       {"label", GS_TYPE_STRING, GS_DIR_IN}};
const gs_operation kUpdate = {"update", GS_TYPE_VOID, 2, kUpdateParams, 0, 0,
                              0};

const gs_param_desc kFailParams[] = {{"out", GS_TYPE_FILE, GS_DIR_OUT}};
const gs_operation kFail = {"fail", GS_TYPE_VOID, 1, kFailParams, 0, 0, 0};

class EngineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("gsrt-engine-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  void Start(int slots = 4) {
    EngineOptions options;
    options.cwd = dir_.string();
    options.work_dir = (dir_ / ".gsrt").string();
    options.retries.app = 1;
    engine_ = std::make_unique<Engine>(options);
    std::vector<HostSetup> hosts;
    hosts.push_back(HostSetup{
        "fake",
        [this, slots](boost::asio::io_context& io, Clock& clock) {
          return std::make_unique<FakeAdapter>(io, clock, slots, &log_);
        },
        "/no/worker"});
    ASSERT_TRUE(engine_->Start(std::move(hosts)).ok());
  }

  TaskId Produce(const char* file, int n) {
    gs_arg args[2] = {};
    args[0].str = file;
    args[1].i = n;
    return engine_->Submit(&kProduce, args);
  }
  TaskId Consume(const char* in, const char* out) {
    gs_arg args[2] = {};
    args[0].str = in;
    args[1].str = out;
    return engine_->Submit(&kConsume, args);
  }
  TaskId Update(const char* file, const char* label) {
    gs_arg args[2] = {};
    args[0].str = file;
    args[1].str = label;
    return engine_->Submit(&kUpdate, args);
  }
  std::string Read(const std::string& name) {
    std::ifstream in(dir_ / name, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  std::string ReadThroughEngine(const char* name) {
    auto fd = engine_->Open((dir_ / name).c_str(), R);
    EXPECT_TRUE(fd.ok()) << fd.status().ToString();
    if (!fd.ok()) return "";
    char buf[4096];
    ssize_t n = ::read(*fd, buf, sizeof buf);
    EXPECT_TRUE(engine_->Close(*fd).ok());
    return std::string(buf, n > 0 ? n : 0);
  }

  fs::path dir_;
  FakeAdapter::Log log_;
  std::unique_ptr<Engine> engine_;
};

// More file parameters than Submit keeps on its stack (16): every one
// reaches the graph, in order, with its direction.
TEST(EngineSubmitTest, ManyFileParametersReachTheGraphInOrder) {
  constexpr int kFiles = 20;
  std::vector<std::string> names;
  std::vector<gs_param_desc> params;
  for (int i = 0; i < kFiles; ++i) names.push_back("f" + std::to_string(i));
  for (int i = 0; i < kFiles; ++i) {
    params.push_back({names[i].c_str(), GS_TYPE_FILE,
                      i % 3 == 0   ? GS_DIR_OUT
                      : i % 3 == 1 ? GS_DIR_IN
                                   : GS_DIR_INOUT,
                      0, 0});
  }
  params.push_back({"n", GS_TYPE_INT, GS_DIR_IN, 0, 0});
  const gs_operation op = {
      "many", GS_TYPE_VOID, kFiles + 1, params.data(), 0, 0, 0, nullptr, 0};
  EngineOptions options;
  options.cwd = "/submit";
  options.work_dir = "/submit/.gsrt";
  Engine engine(options);  // not started: submission only
  std::vector<gs_arg> args(kFiles + 1);
  for (int i = 0; i < kFiles; ++i) args[i].str = names[i].c_str();
  args[kFiles].i = 7;
  for (int call = 0; call < 2; ++call) {
    TaskId t = engine.Submit(&op, args.data());
    ASSERT_EQ(engine.graph().task(t).num_files, kFiles);
    const FileAccess* acc = engine.graph().accesses(t);
    for (int i = 0; i < kFiles; ++i) {
      VersionId v = acc[i].in != kNoVersion ? acc[i].in : acc[i].out;
      ASSERT_NE(v, kNoVersion) << i;
      EXPECT_EQ(engine.graph().files().path(engine.graph().version(v).file),
                "/submit/f" + std::to_string(i));
      EXPECT_EQ(acc[i].in != kNoVersion, params[i].dir != GS_DIR_OUT) << i;
      EXPECT_EQ(acc[i].out != kNoVersion, params[i].dir != GS_DIR_IN) << i;
    }
  }
}

TEST_F(EngineTest, ReadAfterWriteSeesTheProducersVersion) {
  Start();
  Produce("a", 1);
  Consume("a", "b");
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_EQ(Read("a"), "produce(1,)");
  EXPECT_EQ(Read("b"), "consume([produce(1,)],)");
}

TEST_F(EngineTest, ScratchReuseRunsInParallelAndKeepsVersionsApart) {
  log_.hold = true;
  Start(/*slots=*/8);
  // Three writers of one name: with renaming none waits for another.
  for (int i = 0; i < 3; ++i) {
    Produce("scratch", i);
    std::string out = "out" + std::to_string(i);
    Consume("scratch", out.c_str());
  }
  EXPECT_TRUE(log_.WaitRunning(3))
      << "writers of one file name were serialised";
  log_.ReleaseAll();
  EXPECT_EQ(engine_->Stop(), 0);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(Read("out" + std::to_string(i)),
              "consume([produce(" + std::to_string(i) + ",)],)");
  }
  EXPECT_EQ(Read("scratch"), "produce(2,)");
}

TEST_F(EngineTest, WriteAfterReadDoesNotClobberTheReader) {
  std::ofstream(dir_ / "x") << "original";
  Start();
  Consume("x", "copy");
  Produce("x", 7);
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_EQ(Read("copy"), "consume([original],)");
  EXPECT_EQ(Read("x"), "produce(7,)");
}

TEST_F(EngineTest, NothingIsLeftOutsideTheWorkDir) {
  Start();
  for (int i = 0; i < 4; ++i) {
    Produce("tmp", i);
    Update("acc", "x");
  }
  Consume("tmp", "final");
  EXPECT_EQ(engine_->Stop(), 0);
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir_)) {
    names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{".gsrt", "acc", "final", "tmp"}));
  EXPECT_FALSE(fs::exists(dir_ / ".gsrt" / "data"));
}

TEST_F(EngineTest, OpenForReadingWaitsForTheWriter) {
  Start();
  Produce("a", 5);
  EXPECT_EQ(ReadThroughEngine("a"), "produce(5,)");
  EXPECT_EQ(engine_->Stop(), 0);
}

TEST_F(EngineTest, WritingThroughOpenMakesAVersionLaterTasksSee) {
  Start();
  Produce("a", 1);
  auto fd = engine_->Open((dir_ / "a").c_str(), W);
  ASSERT_TRUE(fd.ok());
  ASSERT_EQ(::write(*fd, "mine", 4), 4);
  ASSERT_TRUE(engine_->Close(*fd).ok());
  Consume("a", "b");
  auto app = engine_->Open((dir_ / "b").c_str(), A);
  ASSERT_TRUE(app.ok());
  ASSERT_EQ(::write(*app, "+", 1), 1);
  ASSERT_TRUE(engine_->Close(*app).ok());
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_EQ(Read("a"), "mine");
  EXPECT_EQ(Read("b"), "consume([mine],)+");
}

TEST_F(EngineTest, SynchronousCallYieldsReturnValueAndOutScalar) {
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
  EXPECT_EQ(value, 3.0);
  EXPECT_EQ(count, 42);
  EXPECT_EQ(engine_->Stop(), 0);
}

TEST_F(EngineTest, FailureStopsDescendantsOnlyAndKeepsTheUsersFile) {
  std::ofstream(dir_ / "f") << "before";
  log_.script["fail"].exit_code = 3;
  Start();
  gs_arg args[1] = {};
  args[0].str = "f";
  engine_->Submit(&kFail, args);
  Consume("f", "g");  // futile
  Produce("h", 1);    // independent
  EXPECT_NE(engine_->Stop(), 0);
  EXPECT_EQ(Read("f"), "before");
  EXPECT_FALSE(fs::exists(dir_ / "g"));
  EXPECT_EQ(Read("h"), "produce(1,)");
  // One retry (app budget 1), then failed.
  EXPECT_EQ(log_.attempts["fail"], 2);
  EXPECT_EQ(log_.attempts["consume"], 0);
}

TEST_F(EngineTest, ResultOfAFailedTaskIsAnError) {
  log_.script["measure"].exit_code = 1;
  Start();
  gs_arg args[2] = {};
  int count = 0;
  double value = 0;
  args[0].str = "a";
  args[1].ptr = &count;
  TaskId t = engine_->Submit(&kMeasure, args);
  Status s = engine_->WaitForResults(t, args, &value);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("measure"), std::string::npos);
  EXPECT_NE(engine_->Stop(), 0);
}

TEST_F(EngineTest, TransientFailureIsRetried) {
  log_.script["produce"].fail_first = 1;
  Start();
  Produce("a", 9);
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_EQ(log_.attempts["produce"], 2);
  EXPECT_EQ(Read("a"), "produce(9,)");
}

TEST_F(EngineTest, StringArgumentsReachTheJobUntouched) {
  Start();
  const char* label = "a b \"q\" 'x'; $HOME\nnext";
  Update("f", label);
  EXPECT_EQ(engine_->Stop(), 0);
  ASSERT_EQ(log_.submitted.size(), 1u);
  EXPECT_EQ(log_.submitted[0].params[1].value, label);
}

// Hosts that can grow (pilots) hear of the tasks left without a slot, and
// that none are left once the slots free up.
TEST_F(EngineTest, AdaptersHearTheBacklog) {
  log_.hold = true;
  Start(/*slots=*/1);
  for (int i = 0; i < 5; ++i) {
    Produce(("p" + std::to_string(i)).c_str(), i);
  }
  {
    std::unique_lock<std::mutex> lock(log_.mu);
    // Tasks wait behind the held job.
    ASSERT_TRUE(log_.cv.wait_for(
        lock, std::chrono::seconds(10),
        [&] { return !log_.backlogs.empty() && log_.backlogs.back() > 0; }))
        << "backlogs told: " << log_.backlogs.size();
  }
  log_.ReleaseAll();
  engine_->Barrier();
  {
    std::lock_guard<std::mutex> lock(log_.mu);
    ASSERT_FALSE(log_.backlogs.empty());
    EXPECT_EQ(log_.backlogs.back(), 0);
    // Told on changes only (start, stop, doubling, halving), never twice
    // the same number in a row.
    for (size_t i = 1; i < log_.backlogs.size(); ++i) {
      EXPECT_NE(log_.backlogs[i], log_.backlogs[i - 1]);
    }
    for (int b : log_.backlogs) EXPECT_LE(b, 4);
  }
  EXPECT_EQ(engine_->Stop(), 0);
}

TEST_F(EngineTest, BarrierWaitsForEverything) {
  Start();
  for (int i = 0; i < 20; ++i) Update("acc", "x");
  engine_->Barrier();
  {
    std::lock_guard<std::mutex> lock(log_.mu);
    EXPECT_EQ(log_.attempts["update"], 20);
  }
  EXPECT_EQ(engine_->Stop(), 0);
}

}  // namespace
}  // namespace gs

namespace gs {
namespace {

// Hosts that do not share the master's files: versions stay where they
// were made and move only when needed.
class EngineDataTest : public EngineTest {
 protected:
  void StartRemote() {
    EngineOptions options;
    options.cwd = dir_.string();
    options.work_dir = (dir_ / ".gsrt").string();
    engine_ = std::make_unique<Engine>(options);
    std::vector<HostSetup> hosts;
    std::string remote = (dir_ / "remote").string();
    hosts.push_back(HostSetup{
        "far",
        [this, remote](boost::asio::io_context& io, Clock& clock) {
          return std::make_unique<FakeAdapter>(io, clock, 4, &log_, remote);
        },
        "/no/worker"});
    ASSERT_TRUE(engine_->Start(std::move(hosts)).ok());
  }
};

TEST_F(EngineDataTest, OutputsStayOnTheirHostUntilNeeded) {
  std::ofstream(dir_ / "input") << "data";
  StartRemote();
  Consume("input", "a");  // stages input (a Put)
  Consume("a", "b");      // a is already there: no transfer
  Consume("b", "c");
  engine_->Barrier();
  {
    std::lock_guard<std::mutex> lock(log_.mu);
    ASSERT_EQ(log_.puts.size(), 1u);
    EXPECT_EQ(log_.puts[0].first, (dir_ / "input").string());
    EXPECT_TRUE(log_.gets.empty()) << "an output moved before anyone needed it";
  }
  EXPECT_EQ(ReadThroughEngine("b"), "consume([consume([data],)],)");
  EXPECT_EQ(engine_->Stop(), 0);
  // GS_Open fetched b; GS_Off fetched the final versions of a and c.
  EXPECT_EQ(log_.gets.size(), 3u);
  EXPECT_EQ(Read("c"), "consume([consume([consume([data],)],)],)");
  EXPECT_EQ(Read("a"), "consume([data],)");
}

TEST_F(EngineDataTest, SupersededRemoteVersionsAreRemoved) {
  StartRemote();
  Produce("scratch", 1);
  Consume("scratch", "out1");
  Produce("scratch", 2);
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_EQ(Read("scratch"), "produce(2,)");
  EXPECT_EQ(Read("out1"), "consume([produce(1,)],)");
  std::lock_guard<std::mutex> lock(log_.mu);
  EXPECT_FALSE(log_.removes.empty());
}

}  // namespace
}  // namespace gs

namespace gs {
namespace {

class EngineHostLossTest : public EngineTest {
 protected:
  void StartTwoRemotes() {
    EngineOptions options;
    options.cwd = dir_.string();
    options.work_dir = (dir_ / ".gsrt").string();
    engine_ = std::make_unique<Engine>(options);
    std::vector<HostSetup> hosts;
    for (std::string name : {"far1", "far2"}) {
      std::string remote = (dir_ / name).string();
      hosts.push_back(HostSetup{
          name,
          [this, remote, name](boost::asio::io_context& io, Clock& clock) {
            return std::make_unique<FakeAdapter>(io, clock, 1, &log_, remote,
                                                 name);
          },
          "/no/worker"});
    }
    ASSERT_TRUE(engine_->Start(std::move(hosts)).ok());
  }
};

TEST_F(EngineHostLossTest, LostOnlyCopyRewindsItsProducer) {
  StartTwoRemotes();
  Produce("x", 1);  // runs on far1; x's only copy stays there
  engine_->Barrier();
  {
    std::lock_guard<std::mutex> lock(log_.mu);
    log_.down.insert("far1");
  }
  Consume("x", "y");  // goes to far1 (x is there), which fails
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_EQ(Read("y"), "consume([produce(1,)],)");
  EXPECT_EQ(Read("x"), "produce(1,)");
  EXPECT_EQ(log_.attempts["produce"], 2) << "the producer was not rewound";
}

TEST_F(EngineHostLossTest, CopyElsewhereAvoidsTheRewind) {
  StartTwoRemotes();
  Produce("x", 1);  // on far1
  // The master reads x: a copy now exists on the master's machine.
  EXPECT_EQ(ReadThroughEngine("x"), "produce(1,)");
  {
    std::lock_guard<std::mutex> lock(log_.mu);
    log_.down.insert("far1");
  }
  Consume("x", "y");
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_EQ(Read("y"), "consume([produce(1,)],)");
  EXPECT_EQ(log_.attempts["produce"], 1) << "rewound although a copy existed";
}

}  // namespace
}  // namespace gs

namespace gs {
namespace {

TEST_F(EngineHostLossTest, LostHostIsUsedAgainWhenItAnswers) {
  StartTwoRemotes();
  Produce("x", 1);  // far1
  engine_->Barrier();
  {
    std::lock_guard<std::mutex> lock(log_.mu);
    log_.down.insert("far1");
  }
  Consume("x", "y");  // far1 fails: rewind, run on far2
  engine_->Barrier();
  {
    std::lock_guard<std::mutex> lock(log_.mu);
    log_.down.erase("far1");
  }
  // Reconnection is retried with backoff (1 s, then 2 s...): wait for it.
  bool back;
  {
    std::unique_lock<std::mutex> lock(log_.mu);
    back = log_.cv.wait_for(lock, std::chrono::seconds(5),
                            [&] { return log_.reconnects > 0; });
  }
  EXPECT_TRUE(back) << "no reconnect attempt within 5 s";
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_EQ(Read("y"), "consume([produce(1,)],)");
}

}  // namespace
}  // namespace gs

namespace gs {
namespace {

TEST_F(EngineTest, AdapterListFallsBackWhenTheFirstDoesNotConnect) {
  log_.down.insert("first");
  EngineOptions options;
  options.cwd = dir_.string();
  options.work_dir = (dir_ / ".gsrt").string();
  engine_ = std::make_unique<Engine>(options);
  HostSetup setup;
  setup.name = "host";
  setup.worker = "/no/worker";
  setup.make = [this](boost::asio::io_context& io, Clock& clock) {
    return std::make_unique<FakeAdapter>(io, clock, 1, &log_, "", "first");
  };
  setup.fallbacks.push_back([this](boost::asio::io_context& io,
                                   Clock& clock) -> std::unique_ptr<Adapter> {
    return std::make_unique<FakeAdapter>(io, clock, 1, &log_, "", "second");
  });
  std::vector<HostSetup> hosts;
  hosts.push_back(std::move(setup));
  ASSERT_TRUE(engine_->Start(std::move(hosts)).ok());
  Produce("a", 3);
  EXPECT_EQ(engine_->Stop(), 0);
  EXPECT_EQ(Read("a"), "produce(3,)");
}

}  // namespace
}  // namespace gs
