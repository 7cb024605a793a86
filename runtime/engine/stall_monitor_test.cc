#include "runtime/engine/stall_monitor.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/fake_clock.h"

namespace gs {
namespace {

// The engine as a look sees it, set by each test; records what the
// monitor asks of it.
struct FakeRun {
  bool stopping = false;
  std::vector<std::pair<TaskId, std::string>> ready;
  std::vector<HostState> states;
  size_t jobs = 0;
  size_t transfers = 0;
  size_t retries = 0;
  bool adapters_offer_slots = false;

  int wakes = 0;
  int notified = 0;
  std::vector<TaskId> failed;
  std::vector<std::string> quiet_events;
};

class FakeSite : public StallMonitor::Site {
 public:
  explicit FakeSite(FakeRun* run) : run_(*run) {}
  bool Stopping() const override { return run_.stopping; }
  size_t NumReady() const override { return run_.ready.size(); }
  std::vector<std::pair<TaskId, std::string>> ReadyTasks() const override {
    return run_.ready;
  }
  void HostStates(std::vector<HostState>* states) const override {
    *states = run_.states;
  }
  size_t NumJobs() const override { return run_.jobs; }
  size_t TransfersInFlight() const override { return run_.transfers; }
  size_t PendingRetries() const override { return run_.retries; }
  bool AdaptersOfferSlots() const override { return run_.adapters_offer_slots; }
  void Wake() override { ++run_.wakes; }
  std::vector<QuietJob> Jobs(Seconds now) const override {
    std::vector<QuietJob> jobs;
    for (size_t i = 0; i < run_.jobs; ++i) {
      jobs.push_back({"task " + std::to_string(i) + " (long)", "h0", now});
    }
    return jobs;
  }
  std::vector<QuietHost> Hosts(Seconds) const override {
    std::vector<QuietHost> hosts;
    for (size_t h = 0; h < run_.states.size(); ++h) {
      hosts.push_back({"h" + std::to_string(h), "up", true, 0.5, ""});
    }
    return hosts;
  }
  void FailStalled(const std::vector<TaskId>& tasks) override {
    run_.failed = tasks;
    run_.ready.clear();
  }
  void NotifyWaiters() override { ++run_.notified; }
  void Quiet(Seconds, const std::string& report) override {
    run_.quiet_events.push_back(report);
  }

 private:
  FakeRun& run_;
};

class StallMonitorTest : public ::testing::Test {
 protected:
  // A monitor with a stall timeout of `bound` seconds, looking every
  // bound / 4 on the fake clock.
  void Make(Seconds bound, bool virtual_time = false) {
    monitor_ = std::make_unique<StallMonitor>(
        bound, virtual_time, "refuser", mu_, stats_, messages_,
        std::make_unique<FakeSite>(&run_));
    monitor_->Start(timers_, clock_);
  }

  FakeClock clock_;
  PeriodicTimers timers_{&clock_};
  Mutex mu_;
  RunStats stats_;
  RecordingMessages messages_;
  FakeRun run_;
  std::unique_ptr<StallMonitor> monitor_;
};

TEST_F(StallMonitorTest, ReadyTasksWithFreeSlotsAndNothingMovingFail) {
  run_.ready = {{3, "task 3 (scratch)"}, {4, "task 4 (scratch)"}};
  run_.states.resize(1);  // one free slot
  Make(4);
  clock_.Advance(3);
  EXPECT_TRUE(run_.failed.empty()) << "not stuck for the bound yet";
  clock_.Advance(2);
  EXPECT_EQ(run_.failed, (std::vector<TaskId>{3, 4}));
  EXPECT_EQ(run_.notified, 1);
  ASSERT_EQ(stats_.notes.size(), 1u);
  EXPECT_NE(stats_.notes[0].find("task 3 (scratch)"), std::string::npos)
      << stats_.notes[0];
  EXPECT_NE(stats_.notes[0].find("refuser"), std::string::npos)
      << stats_.notes[0];
  EXPECT_TRUE(messages_.Has(MessageKind::kError, "task 3 (scratch)"))
      << messages_.AllText();
}

TEST_F(StallMonitorTest, SomethingOutOrMovingIsNotAStall) {
  run_.ready = {{3, "task 3 (scratch)"}};
  run_.states.resize(1);
  run_.retries = 1;  // a failed task waits for its retry
  Make(4);
  clock_.Advance(10);
  EXPECT_TRUE(run_.failed.empty());
  run_.retries = 0;
  for (int i = 0; i < 10; ++i) {
    ++stats_.done;  // something ends at every look
    clock_.Advance(1);
  }
  EXPECT_TRUE(run_.failed.empty());
  EXPECT_TRUE(stats_.notes.empty());
}

TEST_F(StallMonitorTest, JobsOutAndNothingMovingAreReportedNotFailed) {
  run_.jobs = 2;
  run_.states.resize(1);
  Make(4);
  clock_.Advance(5);
  EXPECT_TRUE(run_.failed.empty());
  ASSERT_EQ(run_.quiet_events.size(), 1u);
  ASSERT_EQ(stats_.notes.size(), 1u);
  EXPECT_EQ(stats_.notes[0], run_.quiet_events[0]);
  EXPECT_NE(stats_.notes[0].find("task 1 (long)"), std::string::npos)
      << stats_.notes[0];
  EXPECT_TRUE(messages_.Has(MessageKind::kInfo, "task 1 (long)"))
      << messages_.AllText();
  EXPECT_EQ(run_.notified, 0);
}

TEST_F(StallMonitorTest, SlotsNoRoundSawAskForARound) {
  run_.ready = {{3, "task 3 (scratch)"}};
  run_.jobs = 1;
  run_.adapters_offer_slots = true;
  Make(4);
  clock_.Advance(1);
  EXPECT_EQ(run_.wakes, 1);
}

TEST_F(StallMonitorTest, AStoppingRunIsNotLookedAt) {
  run_.ready = {{3, "task 3 (scratch)"}};
  run_.states.resize(1);
  run_.stopping = true;
  Make(4);
  clock_.Advance(20);
  EXPECT_TRUE(run_.failed.empty());
  EXPECT_TRUE(stats_.notes.empty());
}

TEST_F(StallMonitorTest, NoWatchWithoutATimeoutOrInVirtualTime) {
  Make(0);
  EXPECT_EQ(timers_.active(), 0u);
  monitor_->StartWatchdog();
  EXPECT_EQ(monitor_->watchdog(), nullptr);
  Make(4, /*virtual_time=*/true);
  EXPECT_EQ(timers_.active(), 0u);
  monitor_->StartWatchdog();
  EXPECT_EQ(monitor_->watchdog(), nullptr);
}

TEST_F(StallMonitorTest, TheWatchdogRunsUntilStopped) {
  Make(4);
  EXPECT_EQ(timers_.active(), 1u);
  monitor_->StartWatchdog();
  ASSERT_NE(monitor_->watchdog(), nullptr);
  monitor_->StopWatchdog();  // joins its thread; beats stay harmless
  monitor_->watchdog()->Beat();
}

}  // namespace
}  // namespace gs
