#include "runtime/engine/host_set.h"

#include <gtest/gtest.h>

#include "tests/support/fake_clock.h"
#include "tests/support/recording_adapter.h"

namespace gs {
namespace {

using testing::RecordingAdapter;

class HostSetTest : public ::testing::Test {
 protected:
  HostSetTest() : hosts_(/*rtt_bound=*/1) { hosts_.set_clock(&clock_); }

  // A host whose adapter answers as `answers` says; returns its adapter.
  RecordingAdapter* Add(const std::string& name,
                        RecordingAdapter::Answers answers) {
    auto adapter = std::make_unique<RecordingAdapter>();
    adapter->answers = answers;
    RecordingAdapter* raw = adapter.get();
    auto entry = std::make_unique<HostEntry>();
    entry->name = name;
    entry->adapter = std::move(adapter);
    hosts_.Add(std::move(entry));
    return raw;
  }

  static RecordingAdapter::Answers Connected(Seconds last_heard,
                                             Seconds heartbeat) {
    RecordingAdapter::Answers a;
    a.connected = true;
    a.last_heard = last_heard;
    a.heartbeat_interval = heartbeat;
    a.expected_start_delay = 0;
    return a;
  }

  FakeClock clock_{100};
  HostSet hosts_;
};

TEST_F(HostSetTest, SilentPastHeartbeatAndBoundIsSuspectThenAnswersAgain) {
  RecordingAdapter* a = Add("n1", Connected(/*last_heard=*/100, 2));
  EXPECT_EQ(hosts_.HealthOf(0), HealthState::kUp);
  EXPECT_TRUE(hosts_.TakeHealthChanges().empty());

  clock_.SetNow(104);  // silent 4 s > 2 s interval + 1 s bound
  EXPECT_FALSE(hosts_.Alive(0));
  auto changes = hosts_.TakeHealthChanges();
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].now, HealthState::kSuspect);
  EXPECT_EQ(changes[0].line,
            "host n1 is suspect: silent for 4 s (missed a heartbeat)");
  EXPECT_TRUE(hosts_.TakeHealthChanges().empty()) << "told once";

  a->answers.last_heard = 104;
  changes = hosts_.TakeHealthChanges();
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].line, "host n1 answers again");
  EXPECT_TRUE(hosts_.Alive(0));
}

TEST_F(HostSetTest, DownIsNotToldAsAHealthChange) {
  RecordingAdapter* a = Add("n1", Connected(100, 2));
  a->answers.connected = false;
  EXPECT_EQ(hosts_.HealthOf(0), HealthState::kDown);
  EXPECT_TRUE(hosts_.TakeHealthChanges().empty());
}

TEST_F(HostSetTest, LearnedCapacityFollowsTheAdapter) {
  RecordingAdapter::Answers answers = Connected(100, 0);
  answers.core_capacity = 0;  // offers no capacity: its free slots count
  answers.free_slots = 3;
  answers.memory_capacity = uint64_t{4} << 30;
  Add("pilot", answers);
  HostEntry& host = *hosts_[0];
  host.learns_cores = true;
  host.learns_memory = true;
  std::vector<HostState> states;
  hosts_.LearnHostStates(&states);
  EXPECT_EQ(host.cores, 3);
  EXPECT_DOUBLE_EQ(host.memory_gb, 4);
  ASSERT_EQ(states.size(), 1u);
  EXPECT_EQ(states[0].slots, 3);
}

TEST_F(HostSetTest, StagingJobsHoldSlotsTheAdapterDoesNotCountYet) {
  HostEntry host;
  host.running_cores = 5;
  host.staging_cores = 2;  // 3 started on the adapter, 2 still staging
  host.memory_gb = 8;
  HostState state;
  HostSet::FillHostState(host, /*free_slots=*/1, &state);
  EXPECT_EQ(state.slots, 4);
  EXPECT_DOUBLE_EQ(state.memory_gb, 8);
}

TEST_F(HostSetTest, OrderBySuccessPutsReliableHostsFirstAndKeepsTies) {
  Add("a", Connected(100, 0));
  Add("b", Connected(100, 0));
  Add("c", Connected(100, 0));
  hosts_[0]->jobs_finished = 4;  // 1 of 4 succeeded
  hosts_[0]->jobs_ok = 1;
  hosts_[2]->jobs_finished = 4;  // all succeeded
  hosts_[2]->jobs_ok = 4;
  EXPECT_EQ(hosts_.Order(false), (std::vector<HostId>{0, 1, 2}));
  EXPECT_EQ(hosts_.Order(true), (std::vector<HostId>{1, 2, 0}));
}

TEST_F(HostSetTest, SlotsAndStabilityAskEveryAdapter) {
  RecordingAdapter::Answers busy = Connected(100, 0);
  busy.free_slots = 0;
  Add("busy", busy);
  EXPECT_FALSE(hosts_.AdaptersOfferSlots());
  RecordingAdapter* queue = Add("queue", Connected(100, 0));
  EXPECT_TRUE(hosts_.AdaptersOfferSlots());
  EXPECT_TRUE(hosts_.TransfersStable());
  queue->answers.expected_start_delay = 30;  // a batch queue's wait
  EXPECT_FALSE(hosts_.TransfersStable());
  hosts_[1]->usable = false;
  EXPECT_FALSE(hosts_.AdaptersOfferSlots());
}

TEST_F(HostSetTest, PrefetchIsOnOnceAHostHasADepth) {
  Add("a", Connected(100, 0));
  EXPECT_FALSE(hosts_.any_prefetch());
  auto entry = std::make_unique<HostEntry>();
  entry->prefetch = 2;
  entry->adapter = std::make_unique<RecordingAdapter>();
  hosts_.Add(std::move(entry));
  EXPECT_TRUE(hosts_.any_prefetch());
}

TEST_F(HostSetTest, AvailabilityObservesEachHostsHealth) {
  Add("n1", Connected(100, 2));
  hosts_.ObserveChange(0, HostAvail::kDown);  // no model: nothing happens
  hosts_.set_availability(std::make_unique<LearnedAvailability>(1.0));
  ASSERT_NE(hosts_.availability(), nullptr);
  hosts_.ObserveAvailability();
  EXPECT_EQ(hosts_.availability()->observations(0), 1u);
  EXPECT_EQ(hosts_.availability()->state(0), HostAvail::kUp);
  clock_.SetNow(104);  // suspect: there, not answering
  hosts_.ObserveAvailability();
  EXPECT_EQ(hosts_.availability()->state(0), HostAvail::kReclaimed);
  hosts_.ObserveChange(0, HostAvail::kDown);
  EXPECT_EQ(hosts_.availability()->state(0), HostAvail::kDown);
}

}  // namespace
}  // namespace gs
