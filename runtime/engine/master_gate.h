// Where the master's thread waits for the engine (Barrier, WaitForResults,
// GS_Open, GS_Off): a condition variable that holds the predicates its
// waiters wait on. notify_all() (called with the engine mutex held)
// evaluates them and wakes the master only when one has become true.
//
// In real time that spares the master a wake-up at every job's end while it
// waits in a barrier for thousands of them: each was a futex wake, two
// context switches and a turn on the engine mutex for nothing.
//
// Determinism in virtual time needs the two threads to take turns: the
// engine thread runs handlers and advances the virtual clock only while the
// master waits for something not yet true, never while the master could
// still submit. The gate knows that because it holds the predicate.
#ifndef GSRT_RUNTIME_ENGINE_MASTER_GATE_H_
#define GSRT_RUNTIME_ENGINE_MASTER_GATE_H_

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <vector>

#include "runtime/base/mutex.h"

namespace gs {

class MasterGate {
 public:
  void set_virtual(bool on) { virtual_ = on; }

  // Master thread, `lock` holding the engine mutex. `pred` must read only
  // state guarded by that mutex, and every change that can make it true
  // must be followed by notify_all() before the mutex is released.
  template <typename Pred>
  void wait(MutexLock& lock, Pred pred) {
    std::function<bool()> p = pred;
    if (p()) return;
    Waiting waiting(this, &p);
    if (!virtual_) {
      do {
        cv_.wait(lock.native());
      } while (!p());
      return;
    }
    do {
      blocked_ = true;
      engine_cv_.notify_all();
      cv_.wait(lock.native());
    } while (!p());
    blocked_ = false;
  }

  // A bounded wait in real time; in virtual time time only passes while
  // the master waits, so the bound is not needed and the wait is plain.
  template <typename Rep, typename Period, typename Pred>
  bool wait_for(MutexLock& lock, std::chrono::duration<Rep, Period> bound,
                Pred pred) {
    if (virtual_) {
      wait(lock, pred);
      return true;
    }
    std::function<bool()> p = pred;
    if (p()) return true;
    Waiting waiting(this, &p);
    const auto deadline = std::chrono::steady_clock::now() + bound;
    do {
      if (cv_.wait_until(lock.native(), deadline) == std::cv_status::timeout) {
        return p();
      }
    } while (!p());
    return true;
  }

  // Any thread, with the engine mutex held: wakes the master if what it
  // waits for holds now.
  void notify_all() {
    bool any = false;
    for (const std::function<bool()>* p : preds_) any = any || (*p)();
    if (!any) return;
    blocked_ = false;
    cv_.notify_all();
  }

  // The master will not wait here again (GS_Off is ending the run).
  void MasterLeaves() {
    gone_ = true;
    engine_cv_.notify_all();
  }

  // Engine thread: whether it may run (the master is blocked or gone).
  bool engine_may_run() const { return blocked_ || gone_; }
  bool master_gone() const { return gone_; }
  // Engine thread: waits until it may run. `lock` holds the engine mutex.
  void WaitForTurn(MutexLock& lock) {
    engine_cv_.wait(lock.native(), [this] { return engine_may_run(); });
  }

 private:
  // Registers a waiter's predicate for as long as it waits.
  class Waiting {
   public:
    Waiting(MasterGate* gate, const std::function<bool()>* pred)
        : gate_(gate), pred_(pred) {
      gate_->preds_.push_back(pred_);
    }
    ~Waiting() { std::erase(gate_->preds_, pred_); }
    Waiting(const Waiting&) = delete;
    Waiting& operator=(const Waiting&) = delete;

   private:
    MasterGate* gate_;
    const std::function<bool()>* pred_;
  };

  bool virtual_ = false;
  bool blocked_ = false;
  bool gone_ = false;
  // The predicates of the threads waiting now (the master's, and any
  // other thread of the user's program inside a gsrt call).
  std::vector<const std::function<bool()>*> preds_;
  std::condition_variable cv_;
  std::condition_variable engine_cv_;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_MASTER_GATE_H_
