// Watches the engine thread from a thread of its own. Everything the engine
// does (jobs ending, timers, the stall and quiet reports) runs on that one
// thread, so a call that blocks it (a host that half-answers during a
// reconnect, a batch command that does not return) would stop the run
// without a word. The engine beats once per period; when the beats stop
// for `bound` seconds (counted from the first beat), this reports what the
// engine thread was last in
// (Enter/Leave around the calls into adapters that may block), then again
// each time the silence doubled (quiet_watch.h decides).
#ifndef GSRT_RUNTIME_ENGINE_LOOP_WATCHDOG_H_
#define GSRT_RUNTIME_ENGINE_LOOP_WATCHDOG_H_

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "runtime/base/clock.h"

namespace gs {

class LoopWatchdog {
 public:
  using Report = std::function<void(const std::string&)>;
  // `period`: how often the watchdog looks (seconds of the steady clock).
  LoopWatchdog(Seconds bound, Report report, Seconds period = 1.0);
  ~LoopWatchdog() { Stop(); }
  LoopWatchdog(const LoopWatchdog&) = delete;
  LoopWatchdog& operator=(const LoopWatchdog&) = delete;

  void Beat() { beats_.fetch_add(1, std::memory_order_relaxed); }
  // Ends the watch (the engine stops beating on purpose); joins the thread.
  // Beat, Enter and Leave stay harmless afterwards.
  void Stop();
  // What the engine thread is in until Leave(): "reconnecting to host x".
  void Enter(std::string what);
  void Leave();

 private:
  void Run(Seconds bound, Seconds period);

  Report report_;
  std::atomic<uint64_t> beats_{0};
  std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;  // under mu_
  std::string in_;         // under mu_
  std::thread thread_;
};

// Enter/Leave as a scope; a null watchdog is allowed (nothing watched).
class WatchedCall {
 public:
  WatchedCall(LoopWatchdog* dog, std::string what) : dog_(dog) {
    if (dog_) dog_->Enter(std::move(what));
  }
  ~WatchedCall() {
    if (dog_) dog_->Leave();
  }
  WatchedCall(const WatchedCall&) = delete;
  WatchedCall& operator=(const WatchedCall&) = delete;

 private:
  LoopWatchdog* dog_;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_LOOP_WATCHDOG_H_
