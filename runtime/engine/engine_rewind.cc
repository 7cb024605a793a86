// What the engine does when a host is lost or comes back: the host's
// state, the observers and the reconnect attempts with their backoff.
// Rewinding what the host held is the Rewinder's (rewinder.h); this file
// also answers what the Rewinder asks of the engine (RewindLink).
#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <cstdio>

#include "runtime/engine/engine.h"
#include "runtime/engine/engine_hosts.h"

namespace gs {

// Called by the rewinder under mu_.
size_t Engine::RewindLink::NumHosts() const { return e_.hosts_.size(); }

std::string Engine::RewindLink::HostName(HostId h) const {
  return e_.hosts_[h]->name;
}

bool Engine::RewindLink::SharesMasterFiles(HostId h) const {
  return e_.hosts_[h]->shared;
}

void Engine::RewindLink::Requeue(TaskId t) { e_.dispatcher_.Requeue(t); }

void Engine::RewindLink::Unready(TaskId t) {
  e_.dispatcher_.scheduler().RemoveIf([t](TaskId id) { return id == t; });
}

void Engine::RewindLink::Wake() { e_.WakeLocked(); }

void Engine::RewindLink::TransfersChanged() {
  e_.dispatcher_.TransfersChanged();
}

void Engine::RewindLink::Rewound(const std::string& host,
                                 const std::string& detail) {
  if (!e_.recorder_.watched()) return;
  RunEvent e{"rewind", e_.loop_.clock().Now()};
  e.host = host;
  e.detail = detail;
  e_.recorder_.ReportEvent(e_.mu_, std::move(e));
}

void Engine::HostLostLocked(HostId lost, const std::string& why) {
  HostEntry& host = *hosts_[lost];
  host.usable = false;
  host.reconnect_delay = 0;
  if (!host.shared) host.left_behind = true;
  // Volatile policies learn the loss now, not at the next slot.
  hosts_.ObserveChange(lost, HostAvail::kDown);
  // Timers run on the engine thread, where this is called from.
  boost::asio::post(loop_.io(), [this, lost] { ScheduleReconnect(lost); });
  recorder_.RecordHostLost(mu_, lost, why);
  if (recorder_.watched()) {
    RunEvent e{"host_down", loop_.clock().Now()};
    e.host = host.name;
    e.detail = why;
    recorder_.ReportEvent(mu_, std::move(e));
  }
  rewinder_.HostLost(mu_, lost, why);
}

void Engine::ScheduleReconnect(HostId h) {
  HostEntry& host = *hosts_[h];
  {
    MutexLock lock(&mu_);
    if (loop_.stopping() || host.usable) return;
    host.reconnect_delay = host.reconnect_delay == 0
                               ? options_.reconnect_backoff
                               : std::min(host.reconnect_delay * 2,
                                          options_.reconnect_backoff_max);
  }
  host.reconnect_timer = loop_.clock().After(host.reconnect_delay, [this, h] {
    {
      MutexLock lock(&mu_);
      if (loop_.stopping()) return;
    }
    ReconnectNow(h);
  });
}

void Engine::ReconnectNow(HostId h) {
  {
    MutexLock lock(&mu_);
    hosts_[h]->reconnecting = true;
  }
  WatchedCall watched(stall_.watchdog(),
                      "reconnecting to host " + hosts_[h]->name);
  hosts_[h]->adapter->Reconnect([this, h](Status s) { ReconnectEnded(h, s); });
}

void Engine::ReconnectAnsweredLocked(HostId h, bool ok) {
  HostEntry& host = *hosts_[h];
  host.reconnecting = false;
  // A reconnect is an availability check (paper 004 eq. 1-2), not a new
  // failure: the loss was already charged to the host's distrust.
  recorder_.RecordCheck(mu_, h, ok);
  if (!ok) return;
  host.usable = true;
  host.reconnect_delay = 0;
  hosts_.ObserveChange(h, HostAvail::kUp);
}

void Engine::ReconnectEnded(HostId h, const Status& s) {
  if (sweeper_.ReconnectEnded(h, s)) return;
  std::vector<Dispatch> out;
  std::string failed;  // said when the reason is new, not at every attempt
  {
    MutexLock lock(&mu_);
    if (loop_.stopping()) return;
    HostEntry& host = *hosts_[h];
    ReconnectAnsweredLocked(h, s.ok());
    if (s.ok()) {
      stats_.notes.push_back("host " + host.name + " is back");
      if (recorder_.watched()) {
        RunEvent e{"host_up", loop_.clock().Now()};
        e.host = host.name;
        e.detail = "reconnected";
        recorder_.ReportEvent(mu_, std::move(e));
      }
      ScheduleLocked(&out);
    }
    if (s.ok()) {
      host.reconnect_error.clear();
    } else if (s.message() != host.reconnect_error) {
      host.reconnect_error = s.message();
      failed =
          "host " + host.name + " is not back yet: " + s.message() +
          " (trying again, at most every " +
          std::to_string(static_cast<int>(options_.reconnect_backoff_max)) +
          " s)";
      stats_.notes.push_back(failed);
    }
  }
  if (!failed.empty()) {
    Sayf(console_.messages(), MessageKind::kHostEvent, "\ngsrt: %s\n",
         failed.c_str());
  }
  if (!s.ok()) return ScheduleReconnect(h);
  Sayf(console_.messages(), MessageKind::kHostEvent,
       "\ngsrt: host %s is back\n", hosts_[h]->name.c_str());
  // What the lost connection left there goes before anything new arrives.
  sweeper_.SweepHost(h);
  Send(std::move(out));
}

}  // namespace gs
