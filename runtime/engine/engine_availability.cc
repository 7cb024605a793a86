// The availability model of the volatile policies in live runs
// (runtime/sched/learned_availability.h): every slot, each host's health as
// the engine sees it becomes one observation of its UP / RECLAIMED / DOWN
// chain. The first one is taken at once so the first round knows the state.
#include "runtime/engine/engine.h"
#include "runtime/engine/engine_hosts.h"

namespace gs {

namespace {

HostAvail AvailOf(HealthState health) {
  switch (health) {
    case HealthState::kUp:
      return HostAvail::kUp;
    case HealthState::kSuspect:  // there, but not answering us for now
      return HostAvail::kReclaimed;
    case HealthState::kDown:
      return HostAvail::kDown;
  }
  return HostAvail::kDown;
}

}  // namespace

void Engine::ObserveAvailabilityLocked() {
  for (HostId h = 0; h < hosts_.size(); ++h)
    availability_->Observe(h, AvailOf(HealthOfLocked(h)));
}

void Engine::ScheduleAvailability(Seconds every) {
  {
    MutexLock lock(&mu_);
    if (stopping_) return;
    ObserveAvailabilityLocked();
  }
  availability_timer_ =
      clock_->After(every, [this, every] { ScheduleAvailability(every); });
}

}  // namespace gs
