#include "runtime/engine/stall_monitor.h"

#include <algorithm>

namespace gs {

StallMonitor::StallMonitor(Seconds bound, bool virtual_time, std::string policy,
                           Mutex& mu, RunStats& stats, MessageSink& messages,
                           std::unique_ptr<Site> site)
    : bound_(bound),
      virtual_time_(virtual_time),
      policy_(std::move(policy)),
      mu_(mu),
      stats_(stats),
      messages_(messages),
      site_(std::move(site)),
      stall_(bound),
      quiet_(bound) {}

void StallMonitor::StartWatchdog() {
  if (off()) return;
  MessageSink* messages = &messages_;
  watchdog_ = std::make_unique<LoopWatchdog>(
      bound_, [messages](const std::string& message) {
        // Not under the engine's mutex (the blocked engine thread may hold
        // it): the sink is thread-safe.
        Sayf(*messages, MessageKind::kWarning, "\ngsrt: %s\n", message.c_str());
      });
}

void StallMonitor::Start(PeriodicTimers& timers, const Clock& clock) {
  clock_ = &clock;
  // The simulator has its own deadlock check; virtual hosts may wait on
  // purpose for a long virtual time.
  if (off()) return;
  Seconds every = std::clamp(bound_ / 4, 0.05, 1.0);
  timers.Every(every, [this] {
    if (watchdog_) watchdog_->Beat();
    Check();
    return true;
  });
}

void StallMonitor::StopWatchdog() {
  if (watchdog_) watchdog_->Stop();
}

void StallMonitor::Check() {
  std::string message;
  {
    MutexLock lock(&mu_);
    if (site_->Stopping()) return;
    StallLook look;
    look.now = clock_->Now();
    look.ready = site_->NumReady();
    std::vector<HostState> states;
    site_->HostStates(&states);
    for (const HostState& s : states) look.free_slots += s.free_slots();
    const size_t jobs = site_->NumJobs();
    const size_t transfers = site_->TransfersInFlight();
    look.active = jobs + transfers + site_->PendingRetries();
    look.moved = stats_.jobs + stats_.done + stats_.failed + stats_.futile;
    // Slots no round has seen (a pilot that connected while every running
    // job still runs): a round places the waiting tasks on them.
    if (look.ready > 0 && site_->AdaptersOfferSlots()) site_->Wake();
    const bool out = jobs > 0 || transfers > 0;
    if (quiet_.Look(look.now, out, look.moved)) {
      // next_report() has doubled already: the report names the next one.
      message = DescribeQuiet(look.now, look.now - quiet_.quiet_since());
    }
    if (!stall_.Look(look)) {
      if (!message.empty()) {
        Sayf(messages_, MessageKind::kInfo, "\ngsrt: %s\n", message.c_str());
      }
      return;
    }
    message = FailStalled(look.now, look.now - stall_.stuck_since(), states);
    site_->NotifyWaiters();
  }
  Sayf(messages_, MessageKind::kError, "\ngsrt: %s\n", message.c_str());
}

std::string StallMonitor::DescribeQuiet(Seconds now, Seconds quiet_for) {
  std::string message =
      gs::DescribeQuiet(quiet_for, quiet_.next_report(), site_->Jobs(now),
                        site_->TransfersInFlight(), site_->Hosts(now));
  stats_.notes.push_back(message);
  site_->Quiet(now, message);
  return message;
}

std::string StallMonitor::FailStalled(Seconds now, Seconds stuck_for,
                                      const std::vector<HostState>& states) {
  std::vector<TaskId> ready;
  std::vector<std::string> waiting;
  for (auto& [id, what] : site_->ReadyTasks()) {
    ready.push_back(id);
    waiting.push_back(std::move(what));
  }
  std::vector<StalledHost> hosts;
  const std::vector<QuietHost> seen = site_->Hosts(now);
  for (size_t h = 0; h < seen.size(); ++h) {
    StalledHost host{seen[h].name, seen[h].health, seen[h].usable};
    if (h < states.size()) {
      host.free_slots = states[h].free_slots();
      host.gpus = states[h].gpus;
      host.free_gpus = states[h].gpus - states[h].busy_gpus();
    }
    hosts.push_back(std::move(host));
  }
  std::string message = DescribeStall(policy_, stuck_for, waiting, hosts);
  site_->FailStalled(ready);
  stats_.notes.push_back(message);
  return message;
}

}  // namespace gs
