// A mutex the thread-safety analysis knows (std::mutex in libstdc++ carries
// no annotations), and its scoped lock. The lock can be released and taken
// again inside its scope, and hands condition variables the std::unique_lock
// they wait on.
#ifndef GSRT_RUNTIME_BASE_MUTEX_H_
#define GSRT_RUNTIME_BASE_MUTEX_H_

#include <cassert>
#include <mutex>

#include "runtime/base/thread_annotations.h"

namespace gs {

class CAPABILITY("mutex") Mutex {
 public:
  Mutex() = default;
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void Lock() ACQUIRE() { mu_.lock(); }
  void Unlock() RELEASE() { mu_.unlock(); }
  // Tells the analysis the caller holds it (a callback the engine runs
  // under its lock, where the analysis cannot see the caller).
  void AssertHeld() const ASSERT_CAPABILITY(this) {}
  // For an object that keeps a reference to its owner's mutex: its method
  // REQUIRES(held), the mutex the caller names; this checks that `held` is
  // the one it keeps and tells the analysis so.
  void AssertHeldAs(const Mutex& held) const ASSERT_CAPABILITY(this) {
    assert(&held == this);
    (void)held;
  }

 private:
  friend class MutexLock;
  std::mutex mu_;
};

class SCOPED_CAPABILITY MutexLock {
 public:
  explicit MutexLock(Mutex* mu) ACQUIRE(mu) : lock_(mu->mu_) {}
  ~MutexLock() RELEASE() = default;
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

  // For a stretch without the lock (I/O); Lock() takes it again.
  void Unlock() RELEASE() { lock_.unlock(); }
  void Lock() ACQUIRE() { lock_.lock(); }
  // What std::condition_variable waits on; the wait releases and retakes
  // the mutex, which the analysis does not see (and need not).
  std::unique_lock<std::mutex>& native() { return lock_; }

 private:
  std::unique_lock<std::mutex> lock_;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_BASE_MUTEX_H_
