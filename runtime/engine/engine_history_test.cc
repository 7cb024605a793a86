// What the engine writes to the history (a real SQLite file in a temporary
// directory): queue waits that batch adapters learnt, tied to the run.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <mutex>

#include "runtime/engine/engine.h"
#include "runtime/history/history.h"
#include "tests/support/fake_adapter.h"
#include "tests/support/fake_operations.h"
#include "tests/support/temp_dir.h"

namespace gs {
namespace {

using testing::FakeAdapter;

// A host that learns queue waits, as a batch adapter does, and hands over
// one at each TakeQueueWaits call.
class QueueingAdapter : public FakeAdapter {
 public:
  QueueingAdapter(boost::asio::io_context& io, Clock& clock,
                  FakeAdapter::Log* log, std::deque<QueueWaitSample> waits)
      : FakeAdapter(io, clock, 1, log), waits_(std::move(waits)) {}

  std::vector<QueueWaitSample> TakeQueueWaits() override {
    if (waits_.empty()) return {};
    std::vector<QueueWaitSample> one = {waits_.front()};
    waits_.pop_front();
    return one;
  }

 private:
  std::deque<QueueWaitSample> waits_;
};

class EngineHistoryTest : public ::testing::Test {
 protected:
  // One run of one task on host "batch1", whose adapter reports `waits`;
  // returns the run's id in the history.
  int64_t Run(std::deque<QueueWaitSample> waits) {
    EngineOptions options;
    options.cwd = dir_.path();
    options.work_dir = dir_ / ".gsrt";
    options.program = "queue-test";
    options.history_path = history_path_;
    options.quiet = true;
    Engine engine(options);
    std::vector<HostSetup> hosts;
    hosts.push_back(HostSetup{
        "batch1",
        [this, waits](boost::asio::io_context& io, Clock& clock) {
          return std::make_unique<QueueingAdapter>(io, clock, &log_, waits);
        },
        "/no/worker"});
    EXPECT_TRUE(engine.Start(std::move(hosts)).ok());
    testing::SubmitProduce(engine, "a", 1);
    EXPECT_EQ(engine.Stop(), 0);
    auto history = History::Open(history_path_);
    EXPECT_TRUE(history.ok()) << history.status().ToString();
    auto id = (*history)->LatestRunId();
    EXPECT_TRUE(id.ok());
    return *id;
  }

  std::vector<QueueWait> Waits() {
    auto history = History::Open(history_path_);
    EXPECT_TRUE(history.ok()) << history.status().ToString();
    auto waits = (*history)->LoadQueueWaits("", 100);
    EXPECT_TRUE(waits.ok()) << waits.status().ToString();
    std::vector<QueueWait> out = *waits;
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
      return a.submitted < b.submitted;
    });
    return out;
  }

  TempDir dir_;
  std::string history_path_ = dir_ / "history.db";
  FakeAdapter::Log log_;
};

TEST_F(EngineHistoryTest, QueueWaitsTheAdaptersLearnAreRecordedWithTheRun) {
  int64_t first = Run({{"debug", 10, 12}, {"", 20, 25}});
  int64_t second = Run({{"long", 30, 90}});
  ASSERT_GT(first, 0);
  ASSERT_GT(second, first);
  std::vector<QueueWait> waits = Waits();
  ASSERT_EQ(waits.size(), 3u);
  const struct {
    const char* partition;
    Seconds submitted, started;
    int64_t run;
  } want[] = {
      {"debug", 10, 12, first}, {"", 20, 25, first}, {"long", 30, 90, second}};
  for (size_t i = 0; i < 3; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(waits[i].host, "batch1");
    EXPECT_EQ(waits[i].partition, want[i].partition);
    EXPECT_EQ(waits[i].submitted, want[i].submitted);
    EXPECT_EQ(waits[i].started, want[i].started);
    EXPECT_EQ(waits[i].run_id, want[i].run);
  }
}

}  // namespace
}  // namespace gs
