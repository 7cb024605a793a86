// The availability model of the volatile policies in live runs
// (runtime/sched/learned_availability.h): every slot, each host's health as
// the engine sees it becomes one observation of its UP / RECLAIMED / DOWN
// chain. The first one is taken at once so the first round knows the state.
#include "runtime/engine/engine.h"
#include "runtime/engine/engine_hosts.h"

namespace gs {

bool Engine::ObserveAvailability() {
  MutexLock lock(&mu_);
  if (loop_.stopping()) return false;
  hosts_.ObserveAvailability();
  return true;
}

}  // namespace gs
