// What the engine does when a host is lost or comes back: the monitor
// (host_monitor.h) gives it up and tries it again, the Rewinder
// (rewinder.h) rewinds what it held; this file answers what the Rewinder
// asks of the engine (RewindLink) and what a host back brings (a round).
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
  monitor_.HostLost(mu_, lost, why);
  rewinder_.HostLost(mu_, lost, why);
}

void Engine::MonitorLink::HostBack(HostId) {
  std::vector<Dispatch> out;
  {
    MutexLock lock(&e_.mu_);
    if (e_.loop_.stopping(e_.mu_)) return;
    e_.ScheduleLocked(&out);
  }
  e_.Send(std::move(out));
}

}  // namespace gs
