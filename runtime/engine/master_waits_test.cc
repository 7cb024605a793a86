#include "runtime/engine/master_waits.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <future>

namespace gs {
namespace {

class MasterWaitsTest : public ::testing::Test {
 protected:
  ~MasterWaitsTest() override { std::fclose(out_); }

  std::FILE* out_ = std::tmpfile();
  ProgressLine progress_{out_, /*terminal=*/true};
  Mutex mu_;
  MasterWaits waits_{progress_};
};

TEST_F(MasterWaitsTest, TheLastWaitToEndErasesTheProgressLine) {
  MutexLock lock(&mu_);
  waits_.Begin();
  waits_.Begin();
  progress_.Show("gsrt: 1 done");
  waits_.End();
  EXPECT_TRUE(progress_.shown()) << "another wait is still on";
  EXPECT_TRUE(waits_.waiting());
  waits_.End();
  EXPECT_FALSE(progress_.shown());
  EXPECT_FALSE(waits_.waiting());
}

TEST_F(MasterWaitsTest, LeavingKeepsTheLineForTheNextWait) {
  MutexLock lock(&mu_);
  waits_.Begin();
  progress_.Show("gsrt: 1 done");
  waits_.Leave();
  EXPECT_FALSE(waits_.waiting());
  EXPECT_TRUE(progress_.shown());
}

TEST_F(MasterWaitsTest, AWaitWhoseConditionHoldsReturnsAtOnce) {
  MutexLock lock(&mu_);
  progress_.Show("gsrt: 1 done");
  waits_.Wait(lock, [] { return true; });
  EXPECT_FALSE(waits_.waiting());
  EXPECT_FALSE(progress_.shown());
  EXPECT_EQ(waits_.signal(), 0);
}

TEST_F(MasterWaitsTest, TheMasterWakesWhenNotifiedOfWhatItWaitsFor) {
  bool done = false;
  std::future<void> master = std::async(std::launch::async, [&] {
    MutexLock lock(&mu_);
    waits_.Wait(lock, [&] { return done; });
  });
  // Until the master waits, notifying it does nothing.
  for (int i = 0; i < 5000; ++i) {
    MutexLock lock(&mu_);
    if (waits_.waiting()) break;
    lock.Unlock();
    std::this_thread::yield();
  }
  {
    MutexLock lock(&mu_);
    done = true;
    waits_.NotifyIfWaiting();
  }
  ASSERT_EQ(master.wait_for(std::chrono::seconds(10)),
            std::future_status::ready);
  MutexLock lock(&mu_);
  EXPECT_FALSE(waits_.waiting());
}

}  // namespace
}  // namespace gs
