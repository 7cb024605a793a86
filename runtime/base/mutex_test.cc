#include "runtime/base/mutex.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <thread>

namespace gs {
namespace {

TEST(MutexTest, LockExcludesAnotherThreadUntilReleased) {
  Mutex mu;
  int value = 0;
  MutexLock lock(&mu);
  std::thread other([&] {
    MutexLock l(&mu);
    value = 2;
  });
  value = 1;  // the other thread cannot write while the lock is held
  lock.Unlock();
  other.join();
  lock.Lock();
  EXPECT_EQ(value, 2);
}

TEST(MutexTest, ConditionVariableWaitsOnTheScopedLock) {
  Mutex mu;
  std::condition_variable cv;
  bool ready = false;
  std::thread other([&] {
    MutexLock l(&mu);
    ready = true;
    cv.notify_all();
  });
  {
    MutexLock lock(&mu);
    cv.wait(lock.native(), [&] { return ready; });
    EXPECT_TRUE(ready);
  }
  other.join();
}

}  // namespace
}  // namespace gs
