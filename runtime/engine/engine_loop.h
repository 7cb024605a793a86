// The engine thread: one Boost.Asio io_context, the clock on it (an
// AsioClock, or a VirtualClock in a simulation), the periodic timers, the
// thread that runs them and the signals that stop a run.
//
// In virtual time the thread and the master take turns through the
// MasterGate (master_gate.h): handlers run one at a time while the master
// waits, and when none is ready the clock jumps to the next timer, so the
// order of everything is fixed by the inputs and the seed.
//
// Owned by the Engine. Make, Run, HandleSignals and Join are called on the
// master's thread; after Make, io() takes posts from any thread, and the
// clock and the timers are used on the engine thread (the clock's Now from
// any).
#ifndef GSRT_RUNTIME_ENGINE_ENGINE_LOOP_H_
#define GSRT_RUNTIME_ENGINE_ENGINE_LOOP_H_

#include <functional>
#include <memory>
#include <thread>

#include "runtime/base/clock.h"
#include "runtime/base/messages.h"
#include "runtime/base/mutex.h"
#include "runtime/engine/master_gate.h"
#include "runtime/engine/periodic_timers.h"

namespace boost::asio {
class io_context;
}

namespace gs {

class EngineLoop {
 public:
  // `mu` is the engine's mutex, which guards `gate`; `messages` hears of a
  // simulated run that no event can move on. The references must outlive
  // this object.
  EngineLoop(bool virtual_time, Mutex& mu, MasterGate& gate,
             MessageSink& messages);
  ~EngineLoop();
  EngineLoop(const EngineLoop&) = delete;
  EngineLoop& operator=(const EngineLoop&) = delete;

  // Makes the io_context, the clock and the timers (nothing runs yet).
  void Make();
  bool made() const { return io_ != nullptr; }
  boost::asio::io_context& io() { return *io_; }
  Clock& clock() { return *clock_; }
  const Clock& clock() const { return *clock_; }
  PeriodicTimers& timers() { return *timers_; }

  // Starts the engine thread.
  void Run();
  bool running() const { return thread_.joinable(); }
  // SIGINT and SIGTERM call `on_signal` on the engine thread.
  void HandleSignals(std::function<void(int)> on_signal);
  // The run is ending: handlers that would start new work do nothing.
  // `mu` is the engine's mutex (the one given at construction).
  bool stopping(const Mutex& mu) const REQUIRES(mu) {
    mu_.AssertHeldAs(mu);
    return stopping_;
  }
  void set_stopping(const Mutex& mu) REQUIRES(mu) {
    mu_.AssertHeldAs(mu);
    stopping_ = true;
  }
  // Any thread: the loop returns once the handler running now ends.
  void Stop();
  // Master thread: waits for the engine thread to return.
  void Join();

 private:
  void RunVirtualTime();

  const bool virtual_time_;
  Mutex& mu_;
  MasterGate& gate_ GUARDED_BY(mu_);
  MessageSink& messages_;
  std::unique_ptr<boost::asio::io_context> io_;
  std::unique_ptr<Clock> clock_;
  std::unique_ptr<PeriodicTimers> timers_;
  std::shared_ptr<void> signals_;  // boost::asio::signal_set, when handled
  std::thread thread_;
  bool stopping_ GUARDED_BY(mu_) = false;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_ENGINE_LOOP_H_
