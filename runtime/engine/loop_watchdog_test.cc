#include "runtime/engine/loop_watchdog.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <vector>

namespace gs {
namespace {

// Collects reports; waits for them with a bound.
struct Reports {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<std::string> lines;

  LoopWatchdog::Report Sink() {
    return [this](const std::string& line) {
      std::lock_guard<std::mutex> lock(mu);
      lines.push_back(line);
      cv.notify_all();
    };
  }
  bool WaitFor(size_t n, double seconds) {
    std::unique_lock<std::mutex> lock(mu);
    return cv.wait_for(lock, std::chrono::duration<double>(seconds),
                       [&] { return lines.size() >= n; });
  }
};

TEST(LoopWatchdogTest, ABlockedLoopIsReportedWithWhatItIsIn) {
  Reports reports;
  LoopWatchdog dog(/*bound=*/0.2, reports.Sink(), /*period=*/0.02);
  dog.Beat();  // the loop ran once, then blocked in the call below
  WatchedCall call(&dog, "reconnecting to host node3");
  ASSERT_TRUE(reports.WaitFor(1, 30));
  std::lock_guard<std::mutex> lock(reports.mu);
  EXPECT_NE(reports.lines[0].find("has not come back for"), std::string::npos);
  EXPECT_NE(reports.lines[0].find("(it is reconnecting to host node3)"),
            std::string::npos)
      << reports.lines[0];
}

TEST(LoopWatchdogTest, ABeatingLoopIsNotReported) {
  Reports reports;
  {
    LoopWatchdog dog(/*bound=*/1.0, reports.Sink(), /*period=*/0.02);
    // Beat for well over the bound, every 20 ms of the steady clock.
    const auto end =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(1500);
    while (std::chrono::steady_clock::now() < end) {
      dog.Beat();
      std::unique_lock<std::mutex> lock(reports.mu);
      reports.cv.wait_for(lock, std::chrono::milliseconds(20));
    }
  }  // joined: no report can come later
  EXPECT_TRUE(reports.lines.empty()) << reports.lines[0];
}

TEST(LoopWatchdogTest, NothingIsJudgedBeforeTheFirstBeat) {
  Reports reports;
  LoopWatchdog dog(/*bound=*/0.05, reports.Sink(), /*period=*/0.01);
  EXPECT_FALSE(reports.WaitFor(1, 0.5));
}

TEST(LoopWatchdogTest, StoppedWatchReportsNothingMore) {
  Reports reports;
  LoopWatchdog dog(/*bound=*/0.1, reports.Sink(), /*period=*/0.01);
  dog.Beat();
  dog.Stop();  // the engine stops beating on purpose from here
  EXPECT_FALSE(reports.WaitFor(1, 0.5));
  dog.Beat();  // still harmless
}

TEST(LoopWatchdogTest, ZeroBoundStartsNoThread) {
  Reports reports;
  LoopWatchdog dog(0, reports.Sink(), 0.01);
  EXPECT_FALSE(reports.WaitFor(1, 0.2));
}

}  // namespace
}  // namespace gs
