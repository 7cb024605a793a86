#include "runtime/sched/host_health.h"

namespace gs {

std::string_view HealthStateName(HealthState state) {
  switch (state) {
    case HealthState::kUp:
      return "up";
    case HealthState::kSuspect:
      return "suspect";
    case HealthState::kDown:
      return "down";
  }
  return "?";
}

HealthState ClassifyHealth(const HealthInput& in) {
  if (!in.usable || !in.connected) return HealthState::kDown;
  if (in.heartbeat_interval <= 0 || in.last_heard < 0) return HealthState::kUp;
  const Seconds silent = in.now - in.last_heard;
  return silent > in.heartbeat_interval + in.rtt_bound ? HealthState::kSuspect
                                                       : HealthState::kUp;
}

}  // namespace gs
