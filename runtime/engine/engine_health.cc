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

void Engine::CheckHealth() {
  std::vector<std::string> lines;
  {
    MutexLock lock(&mu_);
    if (loop_.stopping()) return;
    for (HostSet::HealthChange& change : hosts_.TakeHealthChanges()) {
      const HostEntry& host = *hosts_[change.host];
      const bool up = change.now == HealthState::kUp;
      recorder_.RecordCheck(mu_, change.host, up);
      if (recorder_.watched()) {
        RunEvent e{up ? "host_up" : "host_suspect", loop_.clock().Now()};
        e.host = host.name;
        e.detail = change.line;
        recorder_.ReportEvent(mu_, std::move(e));
      }
      stats_.notes.push_back(change.line);
      lines.push_back(std::move(change.line));
    }
  }
  for (const std::string& line : lines) {
    Sayf(console_.messages(), MessageKind::kHostEvent, "\ngsrt: %s\n",
         line.c_str());
  }
}

}  // namespace gs
