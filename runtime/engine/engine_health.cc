// Host health on the engine's side: up / suspect / down from the adapters'
// heartbeats and connection state (runtime/sched/host_health.h). The
// fault-tolerant policies ask it whether a host is alive; a periodic check
// tells the user when a host turns suspect or answers again and records it
// in the history (host_checks, which feed availability, paper 004 eq. 1-2).
#include <cstdio>

#include "runtime/engine/engine.h"
#include "runtime/engine/engine_hosts.h"
#include "runtime/history/history.h"

namespace gs {

HealthState Engine::HealthOfLocked(HostId h) const {
  const HostEntry& host = *hosts_[h];
  HealthInput in;
  in.usable = host.usable;
  in.connected = host.adapter->connected();
  in.now = clock_->Now();
  in.last_heard = host.adapter->last_heard();
  in.heartbeat_interval = host.adapter->heartbeat_interval();
  in.rtt_bound = options_.rtt_bound;
  return ClassifyHealth(in);
}

void Engine::ScheduleHealthCheck(Seconds every) {
  health_timer_ = clock_->After(every, [this, every] {
    CheckHealth();
    ScheduleHealthCheck(every);
  });
}

void Engine::CheckHealth() {
  std::vector<std::string> lines;
  {
    MutexLock lock(&mu_);
    if (stopping_) return;
    health_seen_.resize(hosts_.size(), HealthState::kUp);
    for (HostId h = 0; h < hosts_.size(); ++h) {
      HealthState now = HealthOfLocked(h);
      HealthState before = health_seen_[h];
      if (now == before) continue;
      health_seen_[h] = now;
      const HostEntry& host = *hosts_[h];
      std::string line;
      if (now == HealthState::kSuspect) {
        line = "host " + host.name + " is suspect: silent for " +
               std::to_string(static_cast<int>(clock_->Now() -
                                               host.adapter->last_heard())) +
               " s (missed a heartbeat)";
        recorder_.RecordCheck(mu_, h, false);
      } else if (now == HealthState::kUp && before == HealthState::kSuspect) {
        line = "host " + host.name + " answers again";
        recorder_.RecordCheck(mu_, h, true);
      }
      // Down and back up are told by HostLostLocked / ScheduleReconnect.
      if (line.empty()) continue;
      if (recorder_.watched()) {
        RunEvent e{now == HealthState::kSuspect ? "host_suspect" : "host_up",
                   clock_->Now()};
        e.host = host.name;
        e.detail = line;
        recorder_.ReportEvent(mu_, std::move(e));
      }
      stats_.notes.push_back(line);
      lines.push_back(line);
    }
  }
  for (const std::string& line : lines) {
    std::fprintf(stderr, "\ngsrt: %s\n", line.c_str());
  }
}

}  // namespace gs
