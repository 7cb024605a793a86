// Where the master's thread waits for the engine (Barrier, WaitForResults,
// GS_Open, GS_Off): a condition variable that, in virtual time, also tells
// the engine's thread when the master is blocked.
//
// Determinism in virtual time needs the two threads to take turns: the
// engine thread runs handlers and advances the virtual clock only while the
// master waits for something not yet true, never while the master could
// still submit. The gate knows that because it holds the predicate the
// master waits on: notify_all() (called with the engine mutex held)
// evaluates it and wakes the master only when it has become true. In real
// time the gate is a plain condition variable.
#ifndef GSRT_RUNTIME_ENGINE_MASTER_GATE_H_
#define GSRT_RUNTIME_ENGINE_MASTER_GATE_H_

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>

namespace gs {

class MasterGate {
 public:
  void set_virtual(bool on) { virtual_ = on; }

  // Master thread, `lock` holding the engine mutex.
  template <typename Pred>
  void wait(std::unique_lock<std::mutex>& lock, Pred pred) {
    if (!virtual_) {
      cv_.wait(lock, pred);
      return;
    }
    std::function<bool()> p = pred;
    while (!p()) {
      pred_ = &p;
      blocked_ = true;
      engine_cv_.notify_all();
      cv_.wait(lock);
    }
    pred_ = nullptr;
    blocked_ = false;
  }

  // A bounded wait in real time; in virtual time time only passes while
  // the master waits, so the bound is not needed and the wait is plain.
  template <typename Rep, typename Period, typename Pred>
  bool wait_for(std::unique_lock<std::mutex>& lock,
                std::chrono::duration<Rep, Period> bound, Pred pred) {
    if (!virtual_) return cv_.wait_for(lock, bound, pred);
    wait(lock, pred);
    return true;
  }

  // Any thread, with the engine mutex held.
  void notify_all() {
    if (virtual_ && blocked_ && pred_ && !(*pred_)()) return;
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
  void WaitForTurn(std::unique_lock<std::mutex>& lock) {
    engine_cv_.wait(lock, [this] { return engine_may_run(); });
  }

 private:
  bool virtual_ = false;
  bool blocked_ = false;
  bool gone_ = false;
  std::function<bool()>* pred_ = nullptr;
  std::condition_variable cv_;
  std::condition_variable engine_cv_;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_MASTER_GATE_H_
