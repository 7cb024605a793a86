#include "runtime/base/asio_clock.h"

#include <gtest/gtest.h>
#include <time.h>

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <ctime>
#include <vector>

namespace gs {
namespace {

// Runs `io` until `done()` or a generous deadline; false on the deadline.
template <typename Pred>
bool RunUntil(boost::asio::io_context& io, Pred done) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    io.restart();
    io.run_for(std::chrono::milliseconds(20));
  }
  return true;
}

// The reference is CLOCK_REALTIME read around Now(). A machine whose clock
// is being stepped (NTP on a freshly booted CI host) can move it between the
// reads; such a sample proves nothing, so it is taken again (bounded).
TEST(AsioClockTest, NowIsWallClockSeconds) {
  boost::asio::io_context io;
  AsioClock clock(io);
  auto realtime = [] {
    timespec ts{};
    clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
  };
  double before = 0, now = 0, after = 0;
  for (int attempt = 0; attempt < 20; ++attempt) {
    before = realtime();
    now = clock.Now();
    after = realtime();
    if (after >= before && after - before < 0.5) break;
  }
  EXPECT_GE(now, before - 0.5) << "before " << before << " after " << after;
  EXPECT_LE(now, after + 0.5) << "before " << before << " after " << after;
}

TEST(AsioClockTest, TimersFireInOrderOfDelayOnTheIoContext) {
  boost::asio::io_context io;
  AsioClock clock(io);
  std::vector<int> fired;
  const Seconds start = clock.Now();
  auto t2 = clock.After(0.06, [&] { fired.push_back(2); });
  auto t1 = clock.After(0.02, [&] { fired.push_back(1); });
  auto t0 = clock.After(-1, [&] { fired.push_back(0); });
  EXPECT_TRUE(fired.empty()) << "After must not run fn inline";
  ASSERT_TRUE(RunUntil(io, [&] { return fired.size() == 3; }));
  EXPECT_EQ(fired, (std::vector<int>{0, 1, 2}));
  EXPECT_GE(clock.Now() - start, 0.05);
}

TEST(AsioClockTest, CancelStopsTheCallback) {
  boost::asio::io_context io;
  AsioClock clock(io);
  int cancelled_runs = 0;
  bool later = false;
  auto cancelled = clock.After(0.01, [&] { ++cancelled_runs; });
  auto marker = clock.After(0.05, [&] { later = true; });
  cancelled->Cancel();
  ASSERT_TRUE(RunUntil(io, [&] { return later; }));
  EXPECT_EQ(cancelled_runs, 0);
}

TEST(AsioClockTest, CancelAfterExpiryQueuedStillStops) {
  boost::asio::io_context io;
  AsioClock clock(io);
  // Both expire in the same reactor pass, so both completions are queued
  // before either runs; whichever runs first cancels the other.
  int runs = 0;
  bool marker = false;
  std::unique_ptr<Timer> a, b;
  a = clock.After(0, [&] {
    ++runs;
    b->Cancel();
  });
  b = clock.After(0, [&] {
    ++runs;
    a->Cancel();
  });
  auto done = clock.After(0.03, [&] { marker = true; });
  ASSERT_TRUE(RunUntil(io, [&] { return marker; }));
  EXPECT_EQ(runs, 1);
}

TEST(AsioClockTest, DestroyingTheTimerCancelsIt) {
  boost::asio::io_context io;
  AsioClock clock(io);
  int runs = 0;
  bool marker = false;
  clock.After(0, [&] { ++runs; }).reset();
  auto done = clock.After(0.02, [&] { marker = true; });
  ASSERT_TRUE(RunUntil(io, [&] { return marker; }));
  EXPECT_EQ(runs, 0);
}

TEST(AsioClockTest, CallbackMayCancelItsOwnTimer) {
  boost::asio::io_context io;
  AsioClock clock(io);
  int runs = 0;
  std::unique_ptr<Timer> timer;
  timer = clock.After(0, [&] {
    ++runs;
    timer->Cancel();
  });
  ASSERT_TRUE(RunUntil(io, [&] { return runs == 1; }));
  timer.reset();
  io.restart();
  io.poll();
  EXPECT_EQ(runs, 1);
}

}  // namespace
}  // namespace gs
