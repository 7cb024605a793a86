#include "runtime/engine/loop_watchdog.h"

#include <chrono>

#include "runtime/base/units.h"
#include "runtime/engine/quiet_watch.h"

namespace gs {
namespace {

Seconds SteadyNow() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

LoopWatchdog::LoopWatchdog(Seconds bound, Report report, Seconds period)
    : report_(std::move(report)) {
  if (bound <= 0) return;
  thread_ = std::thread([this, bound, period] { Run(bound, period); });
}

void LoopWatchdog::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void LoopWatchdog::Enter(std::string what) {
  std::lock_guard<std::mutex> lock(mu_);
  in_ = std::move(what);
}

void LoopWatchdog::Leave() {
  std::lock_guard<std::mutex> lock(mu_);
  in_.clear();
}

void LoopWatchdog::Run(Seconds bound, Seconds period) {
  QuietWatch watch(bound);
  std::unique_lock<std::mutex> lock(mu_);
  while (!stopping_) {
    cv_.wait_for(lock, std::chrono::duration<double>(period),
                 [this] { return stopping_; });
    if (stopping_) break;
    // Watched from the first beat: the engine starts beating once its
    // timers run, and what precedes that is not the loop's to answer for.
    const uint64_t beats = beats_.load(std::memory_order_relaxed);
    if (beats == 0) continue;
    const Seconds now = SteadyNow();
    if (!watch.Look(now, true, beats)) continue;
    std::string message = "the engine thread has not come back for " +
                          FormatNumber(now - watch.quiet_since(), "%.0f") +
                          " s";
    message +=
        in_.empty() ? " (not inside a call to a host)" : " (it is " + in_ + ")";
    message +=
        ": no job end, timer or report is handled meanwhile. If this "
        "persists, the call does not return: send SIGQUIT to get a core "
        "dump, or run `gdb -p PID -batch -ex 'thread apply all bt'`, and "
        "report it.";
    lock.unlock();
    report_(message);
    lock.lock();
  }
}

}  // namespace gs
