#include "tests/support/fake_clock.h"

#include <gtest/gtest.h>

#include <vector>

namespace gs {
namespace {

TEST(FakeClockTest, NowMovesOnlyWhenTold) {
  FakeClock clock(100);
  EXPECT_EQ(clock.Now(), 100);
  clock.Advance(2.5);
  EXPECT_EQ(clock.Now(), 102.5);
  clock.SetNow(7);
  EXPECT_EQ(clock.Now(), 7);
}

TEST(FakeClockTest, AdvanceRunsDueTimersInOrderAtTheirDueTime) {
  FakeClock clock;
  std::vector<std::pair<int, Seconds>> fired;
  auto c = clock.After(3, [&] { fired.push_back({3, clock.Now()}); });
  auto a = clock.After(1, [&] { fired.push_back({1, clock.Now()}); });
  auto b = clock.After(2, [&] { fired.push_back({2, clock.Now()}); });
  auto tie = clock.After(2, [&] { fired.push_back({22, clock.Now()}); });
  clock.Advance(2);
  EXPECT_EQ(fired, (std::vector<std::pair<int, Seconds>>{
                       {1, 1.0}, {2, 2.0}, {22, 2.0}}));
  EXPECT_EQ(clock.pending(), 1u);
  clock.Advance(10);
  EXPECT_EQ(fired.back(), (std::pair<int, Seconds>{3, 3.0}));
  EXPECT_EQ(clock.Now(), 12);
}

TEST(FakeClockTest, TimersAddedByCallbacksRunInTheSameAdvance) {
  FakeClock clock;
  std::vector<Seconds> fired;
  std::unique_ptr<Timer> second;
  auto first = clock.After(1, [&] {
    fired.push_back(clock.Now());
    second = clock.After(1, [&] { fired.push_back(clock.Now()); });
  });
  clock.Advance(5);
  EXPECT_EQ(fired, (std::vector<Seconds>{1, 2}));
}

TEST(FakeClockTest, CancelAndDestroyStopTimers) {
  FakeClock clock;
  int runs = 0;
  auto cancelled = clock.After(1, [&] { ++runs; });
  cancelled->Cancel();
  clock.After(1, [&] { ++runs; }).reset();
  EXPECT_EQ(clock.pending(), 0u);
  clock.Advance(2);
  EXPECT_EQ(runs, 0);
}

TEST(FakeClockTest, ZeroDelayRunsOnRunDueNotInline) {
  FakeClock clock(5);
  int runs = 0;
  auto t = clock.After(0, [&] { ++runs; });
  EXPECT_EQ(runs, 0);
  EXPECT_EQ(clock.next_due(), 5);
  clock.RunDue();
  EXPECT_EQ(runs, 1);
}

TEST(FakeClockTest, TimerOutlivingClockIsHarmless) {
  std::unique_ptr<Timer> t;
  {
    FakeClock clock;
    t = clock.After(1, [] {});
  }
  t->Cancel();
  t.reset();
  SUCCEED();
}

}  // namespace
}  // namespace gs
