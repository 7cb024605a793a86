#include "adapters/batch/unlisted_wait.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "tests/support/fake_clock.h"

namespace gs {
namespace {

// A queue whose listing of "pilots" shows job 7 for the first `listed`
// listings, then nothing.
class FakeListing {
 public:
  explicit FakeListing(int listed) : listed_(listed) {}
  UnlistedWait::Lister lister() {
    return [this](const std::vector<std::string>& names) {
      ++calls_;
      QueueListings out;
      for (const std::string& name : names) {
        std::map<std::string, std::string> jobs;
        if (calls_ <= listed_) jobs["7"] = "CONFIGURING";
        if (unreadable_) {
          out.emplace(name, Status::Unavailable("squeue: timeout"));
        } else {
          out.emplace(name, jobs);
        }
      }
      return out;
    };
  }
  int calls() const { return calls_; }
  void set_unreadable(bool u) { unreadable_ = u; }

 private:
  int listed_;
  int calls_ = 0;
  bool unreadable_ = false;
};

std::vector<UnlistedWait::Job> Pilot7() { return {{"7", "pilots"}}; }

TEST(UnlistedWaitTest, NothingListedEndsAtOnce) {
  FakeClock clock;
  FakeListing queue(0);
  UnlistedWait wait(clock, queue.lister(), Pilot7());
  bool done = false;
  wait.Start([&] { done = true; });
  EXPECT_TRUE(done);
  EXPECT_FALSE(wait.waiting());
  EXPECT_EQ(queue.calls(), 1);
  EXPECT_EQ(clock.pending(), 0u);
}

TEST(UnlistedWaitTest, NoJobEndsWithoutAsking) {
  FakeClock clock;
  FakeListing queue(100);
  UnlistedWait wait(clock, queue.lister(), {});
  bool done = false;
  wait.Start([&] { done = true; });
  EXPECT_TRUE(done);
  EXPECT_EQ(queue.calls(), 0);
}

TEST(UnlistedWaitTest, AsksEveryTenthOfASecondUntilTheJobLeft) {
  FakeClock clock;
  FakeListing queue(3);
  UnlistedWait wait(clock, queue.lister(), Pilot7());
  bool done = false;
  wait.Start([&] { done = true; });
  EXPECT_FALSE(done);  // never blocks: the rest is on timers
  EXPECT_TRUE(wait.waiting());
  EXPECT_DOUBLE_EQ(clock.next_due(), 0.1);
  clock.Advance(0.25);
  EXPECT_FALSE(done);
  EXPECT_EQ(queue.calls(), 3);
  clock.Advance(0.1);
  EXPECT_TRUE(done);
  EXPECT_EQ(queue.calls(), 4);
  EXPECT_EQ(clock.pending(), 0u);
}

TEST(UnlistedWaitTest, AnUnreadableListingCountsAsListed) {
  FakeClock clock;
  FakeListing queue(0);
  queue.set_unreadable(true);
  UnlistedWait wait(clock, queue.lister(), Pilot7());
  bool done = false;
  wait.Start([&] { done = true; });
  clock.Advance(0.15);
  EXPECT_FALSE(done);
  queue.set_unreadable(false);
  clock.Advance(0.1);
  EXPECT_TRUE(done);
}

TEST(UnlistedWaitTest, GivesUpAfterThreeSeconds) {
  FakeClock clock;
  FakeListing queue(1000);
  UnlistedWait wait(clock, queue.lister(), Pilot7());
  bool done = false;
  wait.Start([&] { done = true; });
  clock.Advance(2.85);
  EXPECT_FALSE(done);
  clock.Advance(0.3);
  EXPECT_TRUE(done);
  EXPECT_FALSE(wait.waiting());
  EXPECT_NEAR(queue.calls(), 30, 1);
  EXPECT_EQ(clock.pending(), 0u);
}

TEST(UnlistedWaitTest, DestroyedWaitingNeverCallsDone) {
  FakeClock clock;
  FakeListing queue(1000);
  bool done = false;
  {
    UnlistedWait wait(clock, queue.lister(), Pilot7());
    wait.Start([&] { done = true; });
  }
  EXPECT_EQ(clock.pending(), 0u);
  clock.Advance(5);
  EXPECT_FALSE(done);
}

// The engine stops its loop right after Shutdown: the wait then ends on a
// loop of its own (in real time; a fifth of a second here).
TEST(UnlistedWaitTest, FinishesOnItsOwnLoopWhenTheClocksLoopStopped) {
  FakeClock clock;
  FakeListing queue(2);
  UnlistedWait wait(clock, queue.lister(), Pilot7());
  bool done = false;
  wait.Start([&] { done = true; });
  ASSERT_TRUE(wait.waiting());
  wait.FinishOnOwnLoop();
  EXPECT_TRUE(done);
  EXPECT_EQ(queue.calls(), 3);
  EXPECT_EQ(clock.pending(), 0u);  // the first clock's timer is gone
}

TEST(UnlistedWaitTest, OnItsOwnLoopTheBoundStillHolds) {
  FakeClock clock;
  FakeListing queue(1000);
  UnlistedWait wait(clock, queue.lister(), Pilot7());
  bool done = false;
  wait.Start([&] { done = true; });
  clock.SetNow(2.9);  // a tenth of a second left
  wait.FinishOnOwnLoop();
  EXPECT_TRUE(done);
  EXPECT_LE(queue.calls(), 4);
}

}  // namespace
}  // namespace gs
