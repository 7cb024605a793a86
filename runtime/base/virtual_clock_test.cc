#include "runtime/base/virtual_clock.h"

#include <gtest/gtest.h>

#include <vector>

namespace gs {
namespace {

TEST(VirtualClockTest, RunsTimersInTimeThenCreationOrder) {
  VirtualClock clock;
  std::vector<int> order;
  auto a = clock.After(5, [&] { order.push_back(1); });
  auto b = clock.After(2, [&] { order.push_back(2); });
  auto c = clock.After(5, [&] { order.push_back(3); });
  auto d = clock.After(-1, [&] { order.push_back(4); });
  while (clock.RunNext()) {
  }
  EXPECT_EQ(order, (std::vector<int>{4, 2, 1, 3}));
  EXPECT_DOUBLE_EQ(clock.Now(), 5);
  EXPECT_EQ(clock.events(), 4u);
}

TEST(VirtualClockTest, CancelledAndDroppedTimersDoNotRun) {
  VirtualClock clock;
  int ran = 0;
  auto a = clock.After(1, [&] { ++ran; });
  a->Cancel();
  clock.After(2, [&] { ++ran; });  // handle dropped: cancelled
  EXPECT_FALSE(clock.HasPending());
  EXPECT_FALSE(clock.RunNext());
  EXPECT_EQ(ran, 0);
  EXPECT_DOUBLE_EQ(clock.Now(), 0);
}

TEST(VirtualClockTest, TimersSetFromATimerAreRelativeToItsTime) {
  VirtualClock clock;
  std::unique_ptr<Timer> inner;
  Seconds fired = -1;
  auto outer = clock.After(
      3, [&] { inner = clock.After(4, [&] { fired = clock.Now(); }); });
  while (clock.RunNext()) {
  }
  EXPECT_DOUBLE_EQ(fired, 7);
}

}  // namespace
}  // namespace gs
