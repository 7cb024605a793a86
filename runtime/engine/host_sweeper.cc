#include "runtime/engine/host_sweeper.h"

#include <unistd.h>

#include <climits>
#include <cstdio>

namespace gs {

namespace {

// How long GS_Off keeps trying lost hosts (a machine rebooting, an sshd
// being restarted), and how often: a host that stays down costs the run's
// end this much once, said on stderr.
constexpr Seconds kFinalSweepTime = 5;
constexpr Seconds kFinalSweepEvery = 0.25;
// How long GS_Off waits for each host to confirm the run's last removals
// (a round trip; a hung host is given up after it).
constexpr Seconds kConfirmTime = 5;

// Whether a probe's answer tells that the host acted on what was sent
// before it. An adapter that cannot be probed is taken at its word.
bool Answered(const StatusOr<HostProbe>& answer) {
  return answer.ok() ||
         answer.status().code() == Status::Code::kFailedPrecondition;
}

}  // namespace

std::string HostSweeper::OwnerOf(const std::string& work_dir) {
  char name[HOST_NAME_MAX + 1] = {};
  if (::gethostname(name, sizeof(name) - 1) != 0) name[0] = '\0';
  return std::string(name) + ":" + work_dir;
}

HostSweeper::HostSweeper(std::string owner, bool virtual_time, HostSet& hosts,
                         Mutex& mu, RunStats& stats, MessageSink& messages,
                         std::unique_ptr<Site> site)
    : owner_(std::move(owner)),
      virtual_time_(virtual_time),
      hosts_(hosts),
      mu_(mu),
      stats_(stats),
      messages_(messages),
      site_(std::move(site)) {}

void HostSweeper::WaitForHosts(MutexLock& lock, Seconds bound,
                               const bool& begun, bool HostEntry::*pending) {
  site_->Wait(lock, bound, [&] {
    if (!begun) return false;
    for (const auto& host : hosts_) {
      if ((*host).*pending) return false;
    }
    return true;
  });
}

void HostSweeper::SweepHost(HostId h) {
  std::vector<std::string> keep;
  {
    MutexLock lock(&mu_);
    HostEntry& host = *hosts_[h];
    if (host.shared || !host.usable) return;
    host.left_behind = false;
    keep = site_->KeptFiles(h);
  }
  hosts_[h]->adapter->Sweep(owner_, std::move(keep));
}

void HostSweeper::SweepAtStart() {
  // The copies an interrupted run left and this one resumes from stay:
  // they are taken as this run's copies when their tasks are submitted.
  std::vector<std::vector<std::string>> keep(hosts_.size());
  {
    MutexLock lock(&mu_);
    for (auto& [host, file] : site_->ResumedCopies()) {
      keep[host].push_back(std::move(file));
    }
  }
  for (HostId h = 0; h < hosts_.size(); ++h) {
    const HostEntry& host = *hosts_[h];
    if (host.shared || !host.usable) continue;
    host.adapter->Sweep(owner_, std::move(keep[h]));
  }
}

void HostSweeper::FinalSweep(MutexLock& lock) {
  // Simulated hosts keep no files, and the attempts would add to the
  // simulated run's length.
  if (virtual_time_) return;
  bool any = false;
  for (const auto& host : hosts_) any = any || !host->shared;
  if (!any) return;
  ConfirmRemovals(lock);
  begun_ = false;
  // Post only queues (the engine thread runs it once this master waits).
  site_->Post([this] { BeginFinalSweep(); });
  // Bounded twice: by the attempts' deadline and, should an attempt never
  // answer, here.
  WaitForHosts(lock, kFinalSweepTime + 10, begun_, &HostEntry::final_try);
  for (const auto& host : hosts_) {
    if (host->shared || !host->left_behind) continue;
    stats_.notes.push_back(
        "host " + host->name +
        " did not answer again: what this run left in its work dir "
        "(data/, jobs/) is removed by the next run that reaches it");
  }
  sweeping_lost_hosts_ = false;
}

void HostSweeper::ConfirmRemovals(MutexLock& lock) {
  confirms_posted_ = false;
  site_->Post([this] {
    // The copies go now rather than at the shutdown, so that a host that
    // dies before it acted on them is known and swept below.
    site_->RemoveRemoteCopies();
    std::vector<HostId> asked;
    {
      MutexLock guard(&mu_);
      for (HostId h = 0; h < hosts_.size(); ++h) {
        HostEntry& host = *hosts_[h];
        if (host.shared || !host.usable) continue;
        host.confirming = true;
        asked.push_back(h);
      }
      confirms_posted_ = true;
      site_->NotifyWaiters();
    }
    for (HostId h : asked) ConfirmHost(h);
  });
  WaitForHosts(lock, kConfirmTime, confirms_posted_, &HostEntry::confirming);
  for (HostId h = 0; h < hosts_.size(); ++h) {
    if (!hosts_[h]->confirming) continue;
    TakeForLostAtTheEnd(h, "no answer in " +
                               std::to_string(static_cast<int>(kConfirmTime)) +
                               " s to the run's last removals");
  }
}

void HostSweeper::ConfirmHost(HostId h) {
  // Its agent's idle sandboxes go too, and whatever else is there; the
  // agent acts on frames in order, so the probe's answer means that the
  // removals sent before it were done.
  SweepHost(h);
  hosts_[h]->adapter->Probe([this, h](StatusOr<HostProbe> answer) {
    MutexLock lock(&mu_);
    HostEntry& host = *hosts_[h];
    if (!host.confirming) return;  // given up waiting already
    host.confirming = false;
    if (!Answered(answer)) {
      TakeForLostAtTheEnd(h, answer.status().message());
    }
    site_->NotifyWaiters();
  });
}

void HostSweeper::TakeForLostAtTheEnd(HostId h, const std::string& why) {
  HostEntry& host = *hosts_[h];
  host.confirming = false;
  if (!host.usable) return;
  // The run is over: nothing to rewind; what it left there is swept.
  host.usable = false;
  host.left_behind = true;
  site_->RecordHostLost(h, why);
  const std::string line = "host " + host.name + " was lost (" + why + ")";
  stats_.notes.push_back(line);
  Sayf(messages_, MessageKind::kHostEvent, "gsrt: %s\n", line.c_str());
}

void HostSweeper::BeginFinalSweep() {
  std::vector<HostId> lost;
  std::vector<std::string> lines;
  {
    MutexLock lock(&mu_);
    until_ = clock_->Now() + kFinalSweepTime;
    for (HostId h = 0; h < hosts_.size(); ++h) {
      HostEntry& host = *hosts_[h];
      if (host.shared) continue;
      if (host.usable && !host.adapter->connected()) {
        // Its connection ended after its last job (an agent or a machine
        // killed): nothing noticed, and the copies removed a moment ago
        // never reached it.
        TakeForLostAtTheEnd(h, "its connection had ended");
      }
      if (host.usable || !host.left_behind) continue;
      host.final_try = true;
      lost.push_back(h);
      lines.push_back("trying host " + host.name + " again for up to " +
                      std::to_string(static_cast<int>(kFinalSweepTime)) +
                      " s, to remove what this run left in its work dir");
    }
    sweeping_lost_hosts_ = !lost.empty();
    begun_ = true;
    site_->NotifyWaiters();
  }
  for (const std::string& line : lines) {
    Sayf(messages_, MessageKind::kHostEvent, "gsrt: %s\n", line.c_str());
  }
  for (HostId h : lost) {
    if (hosts_[h]->reconnect.timer) hosts_[h]->reconnect.timer->Cancel();
    bool busy;
    {
      MutexLock lock(&mu_);
      busy = hosts_[h]->reconnect.under_way;  // its answer ends the try
    }
    if (!busy) site_->Reconnect(h);
  }
}

bool HostSweeper::ReconnectEnded(HostId h, const Status& s) {
  {
    MutexLock lock(&mu_);
    if (site_->Stopping() || !sweeping_lost_hosts_ || !hosts_[h]->final_try)
      return false;
    site_->ReconnectAnswered(h, s.ok());
  }
  if (!s.ok() && clock_->Now() + kFinalSweepEvery < until_) {
    hosts_[h]->reconnect.timer =
        clock_->After(kFinalSweepEvery, [this, h] { site_->Reconnect(h); });
    return true;
  }
  if (!s.ok()) {
    MutexLock lock(&mu_);
    hosts_[h]->final_try = false;
    site_->NotifyWaiters();
    return true;
  }
  SweepHost(h);
  // Done once the agent answers after the sweep; a host killed again
  // meanwhile is tried again while time remains.
  hosts_[h]->adapter->Probe([this, h](StatusOr<HostProbe> answer) {
    MutexLock lock(&mu_);
    HostEntry& host = *hosts_[h];
    if (!sweeping_lost_hosts_ || !host.final_try) return;
    if (!Answered(answer)) {
      host.usable = false;
      host.left_behind = true;
      if (clock_->Now() + kFinalSweepEvery < until_) {
        host.reconnect.timer =
            clock_->After(kFinalSweepEvery, [this, h] { site_->Reconnect(h); });
        return;
      }
    }
    host.final_try = false;
    site_->NotifyWaiters();
  });
  return true;
}

}  // namespace gs
