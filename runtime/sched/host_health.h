// Host health as the runtime sees it: up, suspect or down (issue 5). Pure:
// computed from what the adapter says (connected, when it last heard from
// the host, its heartbeat interval) and the time now, so it is tested
// without hosts.
//
// - down: the runtime stopped using the host (lost, not reconnected) or the
//   adapter has no connection;
// - suspect: connected, but silent for longer than one heartbeat interval
//   plus the round-trip bound: the host missed a heartbeat. The
//   fault-tolerant policies (FTMET, FTMCT, paper 003) skip it; the adapter
//   gives it up for lost after its own heartbeat timeout;
// - up: otherwise (also a host whose adapter has no heartbeats).
#ifndef GSRT_RUNTIME_SCHED_HOST_HEALTH_H_
#define GSRT_RUNTIME_SCHED_HOST_HEALTH_H_

#include <string_view>

#include "runtime/base/clock.h"

namespace gs {

enum class HealthState { kUp, kSuspect, kDown };

std::string_view HealthStateName(HealthState state);

struct HealthInput {
  bool usable = true;     // the runtime still gives the host jobs
  bool connected = true;  // the adapter's connection
  Seconds now = 0;
  Seconds last_heard = -1;  // -1: the adapter has no liveness signal
  Seconds heartbeat_interval = 0;
  // Slack for the round trip of a heartbeat (paper 003's RTT bound).
  Seconds rtt_bound = 1;
};

HealthState ClassifyHealth(const HealthInput& in);

}  // namespace gs

#endif  // GSRT_RUNTIME_SCHED_HOST_HEALTH_H_
