// The master thread's waits on the engine: the gate it waits on
// (master_gate.h), how many wait (the progress line is drawn only while
// one does and erased once the last ends, so the master's own output
// never lands on it), and the signal that ends the run under them (the
// program's thread then never returns from a gsrt call). Owned by the
// Engine; every call is made with the engine's mutex held.
#ifndef GSRT_RUNTIME_ENGINE_MASTER_WAITS_H_
#define GSRT_RUNTIME_ENGINE_MASTER_WAITS_H_

#include "runtime/base/mutex.h"
#include "runtime/base/progress_line.h"
#include "runtime/engine/master_gate.h"

namespace gs {

class MasterWaits {
 public:
  // `progress` must outlive this object.
  explicit MasterWaits(ProgressLine& progress) : progress_(progress) {}
  MasterWaits(const MasterWaits&) = delete;
  MasterWaits& operator=(const MasterWaits&) = delete;

  // What the master waits on and the engine notifies.
  MasterGate& gate() { return gate_; }

  // Waits until `done` holds, unless a signal ends the run (then never
  // returns): the master's calls (a result, a barrier, a version, GS_Off).
  template <typename Pred>
  void Wait(MutexLock& lock, Pred done) {
    Begin();
    gate_.wait(lock, [&] { return signal_ == 0 && done(); });
    End();
  }
  // A wait of the master's begins, and ends; the last end erases the
  // progress line. Leave ends one and keeps the line (drawn again or
  // erased by the next wait).
  void Begin() { ++waiters_; }
  void End() {
    if (--waiters_ == 0) progress_.Clear();
  }
  void Leave() { --waiters_; }
  bool waiting() const { return waiters_ > 0; }
  // Wakes the master if it waits (the gate looks at its condition again).
  void NotifyIfWaiting() {
    if (waiters_ > 0) gate_.notify_all();
  }

  // The signal (SIGINT, SIGTERM) the engine thread is ending the process
  // for; 0 if none. What the stop cancelled must not be reported as a
  // failure, so no wait of Wait returns after it.
  void set_signal(int sig) { signal_ = sig; }
  int signal() const { return signal_; }

 private:
  ProgressLine& progress_;
  MasterGate gate_;  // a task or version finished
  int waiters_ = 0;
  int signal_ = 0;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_MASTER_WAITS_H_
