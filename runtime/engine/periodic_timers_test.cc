#include "runtime/engine/periodic_timers.h"

#include <gtest/gtest.h>

#include "tests/support/fake_clock.h"

namespace gs {
namespace {

TEST(PeriodicTimersTest, TicksEveryPeriodUntilTheTickSaysStop) {
  FakeClock clock(10);
  PeriodicTimers timers(&clock);
  std::vector<Seconds> fast, slow;
  timers.Every(1, [&] {
    fast.push_back(clock.Now());
    return fast.size() < 3;
  });
  timers.Every(2.5, [&] {
    slow.push_back(clock.Now());
    return true;
  });
  clock.Advance(6);
  EXPECT_EQ(fast, (std::vector<Seconds>{11, 12, 13}));
  EXPECT_EQ(slow, (std::vector<Seconds>{12.5, 15}));
  EXPECT_EQ(timers.active(), 1u);
}

TEST(PeriodicTimersTest, NothingTicksAfterCancelAll) {
  FakeClock clock;
  PeriodicTimers timers(&clock);
  int ticks = 0;
  timers.Every(1, [&] { return ++ticks > 0; });
  clock.Advance(2);
  EXPECT_EQ(ticks, 2);
  timers.CancelAll();
  clock.Advance(5);
  EXPECT_EQ(ticks, 2);
  EXPECT_EQ(timers.active(), 0u);
}

TEST(PeriodicTimersTest, DestroyingTheSetCancelsItsTimers) {
  FakeClock clock;
  int ticks = 0;
  {
    PeriodicTimers timers(&clock);
    timers.Every(1, [&] { return ++ticks > 0; });
  }
  clock.Advance(3);
  EXPECT_EQ(ticks, 0);
}

}  // namespace
}  // namespace gs
