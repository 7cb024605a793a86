#include "runtime/observe/slot_occupancy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace gs {
namespace {

TEST(SlotOccupancyTest, PrefetchedJobsAreQueuedNotRunning) {
  // A 1-slot host with prefetch: three jobs sent at once.
  SlotOccupancy host;
  EXPECT_TRUE(host.Start(1, 1, 1, 10.0));
  EXPECT_FALSE(host.Start(2, 1, 1, 10.0));
  EXPECT_FALSE(host.Start(3, 1, 1, 10.5));
  EXPECT_EQ(host.running(), 1);
  EXPECT_EQ(host.queued(), 2);

  // Job 1 ends at 12: job 2, first sent, takes its slot then.
  SlotOccupancy::Ended e = host.End(1, 1, 12.0);
  EXPECT_DOUBLE_EQ(e.got_slots, 10.0);
  EXPECT_FALSE(e.was_queued);
  EXPECT_EQ(e.now_running, std::vector<JobId>{2});
  EXPECT_EQ(host.running(), 1);
  EXPECT_EQ(host.queued(), 1);

  // Job 2's run time starts at 12, not at 10 when it was sent.
  e = host.End(2, 1, 15.0);
  EXPECT_DOUBLE_EQ(e.got_slots, 12.0);
  EXPECT_EQ(e.now_running, std::vector<JobId>{3});
}

TEST(SlotOccupancyTest, AQueuedJobThatEndsNeverRan) {
  SlotOccupancy host;
  host.Start(1, 1, 1, 0);
  host.Start(2, 1, 1, 0);
  // Cancelled in the host's queue: no run time, nothing moves.
  SlotOccupancy::Ended e = host.End(2, 1, 3.0);
  EXPECT_TRUE(e.was_queued);
  EXPECT_DOUBLE_EQ(e.got_slots, 3.0);
  EXPECT_TRUE(e.now_running.empty());
  EXPECT_EQ(host.running(), 1);
  EXPECT_EQ(host.queued(), 0);
  // Unknown jobs change nothing.
  e = host.End(99, 1, 4.0);
  EXPECT_FALSE(e.was_queued);
  EXPECT_EQ(host.running(), 1);
}

TEST(SlotOccupancyTest, CoresAreSlotsAndTheQueueIsFirstInFirstOut) {
  SlotOccupancy host;  // 4 slots
  EXPECT_TRUE(host.Start(1, 3, 4, 0));
  EXPECT_FALSE(host.Start(2, 2, 4, 0));  // 5 > 4
  // One core is free, but the queue's head needs two: job 3 waits too,
  // as the host's own queue keeps the order.
  EXPECT_FALSE(host.Start(3, 1, 4, 0));
  SlotOccupancy::Ended e = host.End(1, 4, 1.0);
  EXPECT_EQ(e.now_running, (std::vector<JobId>{2, 3}));
  // Wider than the host: runs alone once it is first.
  SlotOccupancy wide;
  EXPECT_TRUE(wide.Start(7, 8, 4, 0));
  // Slots not known (an adapter that tells only its free slots, to which
  // nothing is sent ahead): every job runs.
  SlotOccupancy unknown;
  EXPECT_TRUE(unknown.Start(1, 1, 0, 0));
  EXPECT_TRUE(unknown.Start(2, 1, 0, 0));
  EXPECT_EQ(unknown.queued(), 0);
}

// Whatever the order of ends, never more running than slots, and the
// attempts' run times (got_slots to end) never overlap more than that.
TEST(SlotOccupancyTest, RunningNeverExceedsSlots) {
  std::mt19937 rng(36);
  for (int round = 0; round < 500; ++round) {
    const int slots = 1 + static_cast<int>(rng() % 3);
    SlotOccupancy host;
    std::vector<JobId> out;
    std::vector<std::pair<Seconds, int>> edges;
    Seconds now = 0;
    JobId next = 1;
    for (int step = 0; step < 40; ++step) {
      now += 0.1;
      if (out.empty() || rng() % 2 == 0) {
        host.Start(next, 1, slots, now);
        out.push_back(next++);
      } else {
        const size_t i = rng() % out.size();
        SlotOccupancy::Ended e = host.End(out[i], slots, now);
        out.erase(out.begin() + static_cast<long>(i));
        if (!e.was_queued) {
          edges.push_back({e.got_slots, +1});
          edges.push_back({now, -1});
        }
      }
      ASSERT_LE(host.running(), slots);
      ASSERT_EQ(host.running() + host.queued(), static_cast<int>(out.size()));
    }
    std::sort(edges.begin(), edges.end());
    int at_once = 0;
    for (const auto& [t, d] : edges) {
      at_once += d;
      ASSERT_LE(at_once, slots) << "round " << round;
    }
  }
}

}  // namespace
}  // namespace gs
