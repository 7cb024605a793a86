// The observer seam end to end: a DAG run with GSRT_TRACE's observer gives
// one complete event per job attempt and one flow per true dependency, the
// file is valid JSON, and `gsrt trace`'s replay of the recorded history
// gives the same events.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "gs/gs.h"
#include "runtime/engine/engine.h"
#include "runtime/history/history.h"
#include "runtime/observe/history_replay.h"
#include "runtime/observe/trace_observer.h"
#include "tests/support/fake_adapter.h"
#include "tests/support/fake_operations.h"

namespace gs {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::FakeAdapter;
using testing::kConsume;
using testing::kProduce;

// Counts of a parsed trace.
struct TraceCounts {
  int jobs = 0;
  int flow_starts = 0;
  int flow_ends = 0;
  std::multiset<std::string> job_names;
  std::multiset<std::string> instants;
  std::set<std::pair<int, int>> flow_tracks;
};

TraceCounts Count(const json& trace) {
  TraceCounts c;
  for (const json& e : trace.at("traceEvents")) {
    const std::string ph = e.at("ph");
    if (ph == "X" && e.at("cat").get<std::string>().rfind("job", 0) == 0) {
      ++c.jobs;
      c.job_names.insert(e.at("name").get<std::string>());
    } else if (ph == "s") {
      ++c.flow_starts;
    } else if (ph == "f") {
      ++c.flow_ends;
    } else if (ph == "i") {
      c.instants.insert(e.at("name").get<std::string>());
    }
  }
  return c;
}

json ParseFile(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return json::parse(ss.str());  // throws (fails the test) if not JSON
}

class EngineTraceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("gsrt-engine-trace-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  void Start() {
    EngineOptions options;
    options.cwd = dir_.string();
    options.work_dir = (dir_ / ".gsrt").string();
    options.history_path = (dir_ / ".gsrt/history.db").string();
    options.retries.app = 1;
    options.retries.backoff = 0;
    auto trace = TraceObserver::Create((dir_ / "trace.json").string());
    ASSERT_TRUE(trace.ok()) << trace.status().ToString();
    trace_ = *trace;
    options.observers.push_back(trace_);
    engine_ = std::make_unique<Engine>(options);
    std::vector<HostSetup> hosts;
    hosts.push_back(
        HostSetup{"fake",
                  [this](boost::asio::io_context& io, Clock& clock) {
                    return std::make_unique<FakeAdapter>(io, clock, 2, &log_);
                  },
                  "/no/worker"});
    ASSERT_TRUE(engine_->Start(std::move(hosts)).ok());
  }
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

  fs::path dir_;
  FakeAdapter::Log log_;
  std::shared_ptr<TraceObserver> trace_;
  std::unique_ptr<Engine> engine_;
};

TEST_F(EngineTraceTest, OneEventPerAttemptAndOneFlowPerTrueDependency) {
  log_.script["produce"].fail_first = 1;  // the first produce runs twice
  Start();
  // Tasks 0..5; true dependencies: 2<-0, 3<-2, 4<-1, 5<-4. Rewriting "a"
  // (task 1) is no dependency of task 0's readers (renaming).
  Produce("a", 1);    // 0 (two attempts)
  Produce("a", 2);    // 1
  Consume("a", "b");  // 2 reads a from... task 1 (the latest version)
  Consume("b", "c");  // 3 <- 2
  Consume("a", "d");  // 4 <- 1
  Consume("d", "e");  // 5 <- 4
  EXPECT_EQ(engine_->Stop(), 0);
  const int attempts = log_.attempts["produce"] + log_.attempts["consume"];
  ASSERT_EQ(attempts, 7);

  TraceCounts live = Count(ParseFile(dir_ / "trace.json"));
  EXPECT_EQ(live.jobs, attempts);
  // Edges: 2<-1, 3<-2, 4<-1, 5<-4.
  EXPECT_EQ(live.flow_starts, 4);
  EXPECT_EQ(live.flow_ends, 4);
  EXPECT_EQ(live.job_names.count("produce #0"), 2u);
  EXPECT_EQ(live.job_names.count("consume #5"), 1u);
  EXPECT_EQ(live.instants.count("retry"), 1u);

  // The same trace rebuilt from the history.
  auto history = History::Open((dir_ / ".gsrt/history.db").string());
  ASSERT_TRUE(history.ok()) << history.status().ToString();
  auto run = (*history)->LatestRunId();
  ASSERT_TRUE(run.ok());
  auto rebuilt_path = (dir_ / "rebuilt.json").string();
  {
    auto rebuilt = TraceObserver::Create(rebuilt_path);
    ASSERT_TRUE(rebuilt.ok());
    Status s = ReplayRun(**history, *run, rebuilt->get());
    ASSERT_TRUE(s.ok()) << s.ToString();
  }
  TraceCounts again = Count(ParseFile(rebuilt_path));
  EXPECT_EQ(again.jobs, live.jobs);
  EXPECT_EQ(again.flow_starts, live.flow_starts);
  EXPECT_EQ(again.job_names, live.job_names);
  EXPECT_EQ(again.instants, live.instants);
}

}  // namespace
}  // namespace gs
