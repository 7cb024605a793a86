#include "runtime/engine/master_gate.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

namespace gs {
namespace {

// The waiter's predicate is evaluated by the notifier, under the mutex;
// the waiter wakes once it holds, and only then.
TEST(MasterGateTest, TheWaiterWakesWhenItsPredicateHolds) {
  MasterGate gate;
  Mutex mu;
  int done = 0;  // guarded by mu
  std::atomic<int> seen_by_waiter{0};
  const std::thread::id main_id = std::this_thread::get_id();
  std::thread waiter([&] {
    MutexLock lock(&mu);
    gate.wait(lock, [&] {
      if (std::this_thread::get_id() != main_id) ++seen_by_waiter;
      return done == 1000;
    });
  });
  // Once it has looked (under the mutex), it waits: the notifies below
  // all find it waiting.
  const auto until =
      std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (seen_by_waiter.load() == 0 && std::chrono::steady_clock::now() < until)
    std::this_thread::yield();
  EXPECT_EQ(seen_by_waiter.load(), 1);
  // Every notify evaluates the predicate; only the last one holds. The
  // yield gives a woken waiter the mutex (a plain condition variable woke
  // it at every notify).
  for (int i = 0; i < 1000; ++i) {
    {
      MutexLock lock(&mu);
      ++done;
      gate.notify_all();
    }
    std::this_thread::yield();
  }
  waiter.join();
  // The waiter looked at its predicate when it started waiting and when it
  // was woken (plus any spurious wake-up), not after each of the 999
  // notifies that could not wake it.
  EXPECT_LE(seen_by_waiter.load(), 10);
}

TEST(MasterGateTest, EachWaiterWakesOnItsOwnCondition) {
  MasterGate gate;
  Mutex mu;
  bool a = false, b = false;  // guarded by mu
  bool a_back = false, b_back = false;
  std::thread wait_a([&] {
    MutexLock lock(&mu);
    gate.wait(lock, [&] { return a; });
    a_back = true;
  });
  std::thread wait_b([&] {
    MutexLock lock(&mu);
    gate.wait(lock, [&] { return b; });
    b_back = true;
  });
  {
    MutexLock lock(&mu);
    b = true;
    gate.notify_all();
  }
  wait_b.join();
  {
    MutexLock lock(&mu);
    EXPECT_TRUE(b_back);
    EXPECT_FALSE(a_back);
    a = true;
    gate.notify_all();
  }
  wait_a.join();
  EXPECT_TRUE(a_back);
}

TEST(MasterGateTest, ABoundedWaitEndsAtItsBoundOrWhenItHolds) {
  MasterGate gate;
  Mutex mu;
  MutexLock lock(&mu);
  EXPECT_FALSE(
      gate.wait_for(lock, std::chrono::milliseconds(20), [] { return false; }));
  EXPECT_TRUE(
      gate.wait_for(lock, std::chrono::seconds(60), [] { return true; }));
  bool ready = false;  // guarded by mu
  std::thread notifier([&] {
    MutexLock l(&mu);
    ready = true;
    gate.notify_all();
  });
  EXPECT_TRUE(
      gate.wait_for(lock, std::chrono::seconds(60), [&] { return ready; }));
  lock.Unlock();
  notifier.join();
}

}  // namespace
}  // namespace gs
