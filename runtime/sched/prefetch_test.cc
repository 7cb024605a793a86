#include "runtime/sched/prefetch.h"

#include <gtest/gtest.h>

#include <vector>

namespace gs {
namespace {

// Host 0 runs a job in 1 s, host 1 in `slow` s.
class TwoSpeeds : public Predictor {
 public:
  explicit TwoSpeeds(Seconds slow) : slow_(slow) {}
  Seconds ExecTime(OpId, HostId h) const override { return h == 0 ? 1 : slow_; }
  Seconds TransferTime(TaskId, HostId) const override { return 0; }

 private:
  Seconds slow_;
};

HostState Busy(int slots, int jobs) {
  HostState s;
  s.slots = slots;
  for (int i = 0; i < jobs; ++i) s.AddBusy(10, Need{});
  return s;
}

TEST(PrefetchDepthTest, AWindowOfShortJobsDeepensTheQueue) {
  // 2 slots, 20 ms of work per slot: jobs of 4 ms -> 10 queued.
  EXPECT_EQ(PrefetchDepth(2, 0.02, 2, 0.004), 10);
  // Long jobs keep the configured depth; so does a host whose mean is not
  // known yet, and a window of 0.
  EXPECT_EQ(PrefetchDepth(2, 0.02, 2, 1.0), 2);
  EXPECT_EQ(PrefetchDepth(2, 0.02, 2, 0), 2);
  EXPECT_EQ(PrefetchDepth(2, 0, 2, 0.004), 2);
  // Prefetch off stays off.
  EXPECT_EQ(PrefetchDepth(0, 0.02, 2, 0.004), 0);
  // Very short jobs: at most kMaxPrefetchPerSlot per slot.
  EXPECT_EQ(PrefetchDepth(2, 0.02, 2, 1e-7), 2 * kMaxPrefetchPerSlot);
  EXPECT_EQ(PrefetchDepth(2, 1e300, 2, 1e-300), 2 * kMaxPrefetchPerSlot);
}

TEST(PrefetchStatesTest, RoomIsDepthBeyondCapacity) {
  // Host 0: 2 slots, both busy; host 1: 2 slots, one busy plus one queued
  // (its state says 3 slots: the engine adds the jobs it holds).
  std::vector<HostState> states = {Busy(2, 2), Busy(3, 3)};
  const std::vector<int> depth = {2, 2};
  const std::vector<int> capacity = {2, 2};
  EXPECT_TRUE(PrefetchStates(depth, capacity, &states));
  EXPECT_EQ(states[0].free_slots(), 2);
  EXPECT_EQ(states[1].free_slots(), 1);
}

TEST(PrefetchStatesTest, HostsWithoutDepthOfferNothing) {
  std::vector<HostState> states = {Busy(2, 0), Busy(2, 2)};
  const std::vector<int> depth = {0, 1};
  const std::vector<int> capacity = {2, 2};
  EXPECT_TRUE(PrefetchStates(depth, capacity, &states));
  EXPECT_EQ(states[0].free_slots(), 0) << "depth 0: today's behaviour";
  EXPECT_EQ(states[1].free_slots(), 1);
}

TEST(PrefetchStatesTest, FullQueuesAndLostHostsHaveNoRoom) {
  std::vector<HostState> states = {Busy(2, 4), Busy(2, 0)};
  states[1].usable = false;
  const std::vector<int> depth = {2, 2};
  const std::vector<int> capacity = {2, 2};
  EXPECT_FALSE(PrefetchStates(depth, capacity, &states));
  EXPECT_EQ(states[0].free_slots(), 0);
  EXPECT_EQ(states[1].free_slots(), 0);
}

// The engine's round: a first pass on free slots, then the prefetch pass
// on what is left of the same queue.
std::vector<Placement> TwoPasses(Scheduler& s, const Predictor& p,
                                 std::vector<Placement>* first) {
  std::vector<HostState> states = {Busy(1, 0), Busy(1, 0)};
  *first = s.Schedule({0, &states, &p});
  for (const Placement& pl : *first) {
    states[pl.host].AddBusy(pl.predicted_end, {});
  }
  const std::vector<int> depth = {1, 1};
  const std::vector<int> capacity = {1, 1};
  EXPECT_TRUE(PrefetchStates(depth, capacity, &states));
  return s.Schedule({0, &states, &p});
}

TEST(PrefetchStatesTest, SecondPassQueuesInTheQueuesOrder) {
  TwoSpeeds p(1);
  Scheduler s(MakeMctPolicy());
  for (TaskId t = 0; t < 6; ++t) s.AddReady(t, 0);
  std::vector<Placement> first;
  auto second = TwoPasses(s, p, &first);
  ASSERT_EQ(first.size(), 2u);
  ASSERT_EQ(second.size(), 2u);
  EXPECT_EQ(second[0].task, 2u);
  EXPECT_EQ(second[1].task, 3u);
  EXPECT_NE(second[0].host, second[1].host) << "one queued job per host";
  EXPECT_EQ(s.num_ready(), 2u) << "the rest waits for the next round";
}

TEST(PrefetchStatesTest, MctDoesNotQueueOnAHostFarSlower) {
  // Host 1 is 100 times slower: MCT runs only on host 0 (the others wait
  // for it), and the prefetch pass queues one job there, none on host 1.
  TwoSpeeds p(100);
  Scheduler s(MakeMctPolicy());
  for (TaskId t = 0; t < 6; ++t) s.AddReady(t, 0);
  std::vector<Placement> first;
  auto second = TwoPasses(s, p, &first);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].host, 0u);
  ASSERT_EQ(second.size(), 1u);
  EXPECT_EQ(second[0].task, 1u);
  EXPECT_EQ(second[0].host, 0u);
}

}  // namespace
}  // namespace gs
