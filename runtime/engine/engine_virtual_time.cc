// The engine in virtual time (EngineOptions::hooks.virtual_time): the same
// handlers and timers as in real time, driven by a VirtualClock. The engine
// thread and the master take turns through the MasterGate: while the
// master runs (submitting), the engine waits; while the master waits for a
// result, the engine runs ready handlers one at a time and, when none is
// ready, advances the clock to the next timer. The order of everything is
// then fixed by the inputs and the seed.
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <cstdio>
#include <cstdlib>

#include "runtime/base/asio_clock.h"
#include "runtime/base/virtual_clock.h"
#include "runtime/engine/engine.h"

namespace gs {

std::unique_ptr<Clock> Engine::MakeClock() {
  waits_.gate().set_virtual(options_.hooks.virtual_time);
  if (options_.hooks.virtual_time) return std::make_unique<VirtualClock>();
  return std::make_unique<AsioClock>(*io_);
}

void Engine::RunVirtualTime() {
  auto* clock = static_cast<VirtualClock*>(clock_.get());
  auto guard = boost::asio::make_work_guard(*io_);
  while (!io_->stopped()) {
    {
      MutexLock lock(&mu_);
      waits_.gate().WaitForTurn(lock);
    }
    if (io_->poll_one() > 0) continue;
    if (io_->stopped()) break;
    bool gone;
    {
      MutexLock lock(&mu_);
      gone = waits_.gate().master_gone();
    }
    if (gone) {
      // The run is over: only the shutdown the master is posting remains.
      // Time must not run on (availability processes never end).
      io_->run_one();
      continue;
    }
    if (clock->RunNext()) continue;
    // Nothing is ready, no timer is pending and the master waits: no
    // event can ever wake it.
    Sayf(console_.messages(), MessageKind::kError,
         "gsrt: virtual time %.3f: the master waits for something "
         "no pending event can bring (a deadlock in the simulated "
         "run)\n",
         clock->Now());
    std::abort();
  }
}

}  // namespace gs
