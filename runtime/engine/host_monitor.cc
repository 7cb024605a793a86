#include "runtime/engine/host_monitor.h"

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <utility>
#include <vector>

namespace gs {

HostMonitor::HostMonitor(Seconds backoff, Seconds backoff_max, Mutex& mu,
                         EngineLoop& loop, HostSet& hosts, HostSweeper& sweeper,
                         RunRecorder& recorder, RunStats& stats,
                         MessageSink& messages, std::unique_ptr<Site> site)
    : backoff_(backoff),
      backoff_max_(backoff_max),
      mu_(mu),
      loop_(loop),
      hosts_(hosts),
      sweeper_(sweeper),
      recorder_(recorder),
      stats_(stats),
      messages_(messages),
      site_(std::move(site)) {}

void HostMonitor::SetSlot() {
  heartbeat_ = 0;
  for (auto& h : hosts_) {
    Seconds every = h->adapter->heartbeat_interval();
    if (every > 0 && (heartbeat_ == 0 || every < heartbeat_))
      heartbeat_ = every;
  }
  // One availability slot per heartbeat: a host's state cannot be seen to
  // change faster; hosts without heartbeats are looked at every second.
  if (hosts_.availability()) {
    hosts_.availability()->set_slot(heartbeat_ > 0 ? heartbeat_ : 1.0);
  }
}

void HostMonitor::Start() {
  if (hosts_.availability() && ObserveAvailability()) {
    loop_.timers().Every(hosts_.availability()->slot(),
                         [this] { return ObserveAvailability(); });
  }
  if (heartbeat_ > 0) {
    loop_.timers().Every(heartbeat_ / 2, [this] {
      CheckHealth();
      return true;
    });
  }
}

void HostMonitor::CancelReconnects() {
  for (auto& h : hosts_) {
    if (h->reconnect.timer) h->reconnect.timer->Cancel();
  }
}

bool HostMonitor::ObserveAvailability() {
  MutexLock lock(&mu_);
  if (loop_.stopping(mu_)) return false;
  hosts_.ObserveAvailability();
  return true;
}

void HostMonitor::CheckHealth() {
  std::vector<std::string> lines;
  {
    MutexLock lock(&mu_);
    if (loop_.stopping(mu_)) return;
    for (HostSet::HealthChange& change : hosts_.TakeHealthChanges()) {
      const bool up = change.now == HealthState::kUp;
      recorder_.RecordCheck(mu_, change.host, up);
      ReportHostEvent(up ? "host_up" : "host_suspect", change.host,
                      change.line);
      stats_.notes.push_back(change.line);
      lines.push_back(std::move(change.line));
    }
  }
  for (const std::string& line : lines) {
    Sayf(messages_, MessageKind::kHostEvent, "\ngsrt: %s\n", line.c_str());
  }
}

void HostMonitor::ReportHostEvent(const char* kind, HostId host,
                                  const std::string& detail) {
  if (!recorder_.watched()) return;
  RunEvent e{kind, loop_.clock().Now()};
  e.host = hosts_[host]->name;
  e.detail = detail;
  recorder_.ReportEvent(mu_, std::move(e));
}

void HostMonitor::HostLost(const Mutex& mu, HostId lost,
                           const std::string& why) {
  mu_.AssertHeldAs(mu);
  HostEntry& host = *hosts_[lost];
  host.usable = false;
  host.reconnect.delay = 0;
  if (!host.shared) host.left_behind = true;
  // Volatile policies learn the loss now, not at the next slot.
  hosts_.ObserveChange(lost, HostAvail::kDown);
  // Timers run on the engine thread, where this is called from.
  boost::asio::post(loop_.io(), [this, lost] { ScheduleReconnect(lost); });
  recorder_.RecordHostLost(mu_, lost, why);
  ReportHostEvent("host_down", lost, why);
}

void HostMonitor::ScheduleReconnect(HostId h) {
  HostEntry& host = *hosts_[h];
  {
    MutexLock lock(&mu_);
    if (loop_.stopping(mu_) || host.usable) return;
    host.reconnect.delay =
        host.reconnect.delay == 0
            ? backoff_
            : std::min(host.reconnect.delay * 2, backoff_max_);
  }
  host.reconnect.timer = loop_.clock().After(host.reconnect.delay, [this, h] {
    {
      MutexLock lock(&mu_);
      if (loop_.stopping(mu_)) return;
    }
    Reconnect(h);
  });
}

void HostMonitor::Reconnect(HostId h) {
  {
    MutexLock lock(&mu_);
    hosts_[h]->reconnect.under_way = true;
  }
  WatchedCall watched(watchdog_, "reconnecting to host " + hosts_[h]->name);
  hosts_[h]->adapter->Reconnect([this, h](Status s) { ReconnectEnded(h, s); });
}

void HostMonitor::Answered(const Mutex& mu, HostId h, bool ok) {
  mu_.AssertHeldAs(mu);
  HostEntry& host = *hosts_[h];
  host.reconnect.under_way = false;
  // A reconnect is an availability check (paper 004 eq. 1-2), not a new
  // failure: the loss was already charged to the host's distrust.
  recorder_.RecordCheck(mu_, h, ok);
  if (!ok) return;
  host.usable = true;
  host.reconnect.delay = 0;
  hosts_.ObserveChange(h, HostAvail::kUp);
}

void HostMonitor::ReconnectEnded(HostId h, const Status& s) {
  if (sweeper_.ReconnectEnded(h, s)) return;
  std::string failed;  // said when the reason is new, not at every attempt
  {
    MutexLock lock(&mu_);
    if (loop_.stopping(mu_)) return;
    HostEntry& host = *hosts_[h];
    Answered(mu_, h, s.ok());
    if (s.ok()) {
      stats_.notes.push_back("host " + host.name + " is back");
      ReportHostEvent("host_up", h, "reconnected");
      host.reconnect.error.clear();
    } else if (s.message() != host.reconnect.error) {
      host.reconnect.error = s.message();
      failed = "host " + host.name + " is not back yet: " + s.message() +
               " (trying again, at most every " +
               std::to_string(static_cast<int>(backoff_max_)) + " s)";
      stats_.notes.push_back(failed);
    }
  }
  if (!failed.empty()) {
    Sayf(messages_, MessageKind::kHostEvent, "\ngsrt: %s\n", failed.c_str());
  }
  if (!s.ok()) return ScheduleReconnect(h);
  Sayf(messages_, MessageKind::kHostEvent, "\ngsrt: host %s is back\n",
       hosts_[h]->name.c_str());
  // What the lost connection left there goes before anything new arrives.
  sweeper_.SweepHost(h);
  site_->HostBack(h);
}

}  // namespace gs
