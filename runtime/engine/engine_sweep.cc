// What a run leaves on hosts that keep their own files (docs/design.md,
// "Remote hosts: agents and data"): a host killed or stopped with jobs
// running keeps their sandboxes, the copies the run dropped when it gave
// the host up and the partial temporary of a file it was receiving; a
// killed master leaves its copies everywhere. Whoever connects to such a
// host next clears it (Adapter::Sweep) before anything new arrives: this
// run when the host comes back, the next run of the same work dir
// otherwise (keeping what it resumes from). At GS_Off each host must
// answer after the run's last removals; one that does not, or that was
// lost and is not back, is tried a few seconds more and swept.
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <chrono>
#include <climits>
#include <cstdio>

#include "runtime/engine/engine.h"
#include "runtime/engine/engine_hosts.h"
#include "runtime/engine/resume_journal.h"

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

void Engine::WaitForHostsLocked(MutexLock& lock, Seconds bound,
                                const bool& begun, bool HostEntry::*pending) {
  ++waiters_;
  finished_cv_.wait_for(lock, std::chrono::duration<double>(bound), [&] {
    if (!begun) return false;
    for (const auto& host : hosts_) {
      if ((*host).*pending) return false;
    }
    return true;
  });
  EndWaitLocked();
}

std::string Engine::SweepOwner() const {
  char name[HOST_NAME_MAX + 1] = {};
  if (::gethostname(name, sizeof(name) - 1) != 0) name[0] = '\0';
  return std::string(name) + ":" + options_.work_dir;
}

void Engine::SweepHost(HostId h) {
  std::vector<std::string> keep;
  {
    MutexLock lock(&mu_);
    HostEntry& host = *hosts_[h];
    if (host.shared || !host.usable) return;
    host.left_behind = false;
    keep = data_.FileNamesOn(h);
  }
  hosts_[h]->adapter->Sweep(SweepOwner(), std::move(keep));
}

void Engine::SweepHostsAtStart() {
  // The copies an interrupted run left and this one resumes from stay:
  // they are taken as this run's copies when their tasks are submitted.
  std::vector<std::vector<std::string>> keep(hosts_.size());
  {
    MutexLock lock(&mu_);
    if (journal_) {
      for (auto& [host, file] : journal_->FetchedCopies())
        keep[host].push_back(std::move(file));
    }
  }
  const std::string owner = SweepOwner();
  for (HostId h = 0; h < hosts_.size(); ++h) {
    const HostEntry& host = *hosts_[h];
    if (host.shared || !host.usable) continue;
    host.adapter->Sweep(owner, std::move(keep[h]));
  }
}

void Engine::SweepLostHostsLocked(MutexLock& lock) {
  // Simulated hosts keep no files, and the attempts would add to the
  // simulated run's length.
  if (options_.hooks.virtual_time) return;
  bool any = false;
  for (const auto& host : hosts_) any = any || !host->shared;
  if (!any) return;
  ConfirmRemovalsLocked(lock);
  hosts_.final_sweep().begun = false;
  lock.Unlock();
  boost::asio::post(*io_, [this] { BeginFinalSweep(); });
  lock.Lock();
  // Bounded twice: by the attempts' deadline and, should an attempt never
  // answer, here.
  WaitForHostsLocked(lock, kFinalSweepTime + 10, hosts_.final_sweep().begun,
                     &HostEntry::final_try);
  for (const auto& host : hosts_) {
    if (host->shared || !host->left_behind) continue;
    stats_.notes.push_back(
        "host " + host->name +
        " did not answer again: what this run left in its work dir "
        "(data/, jobs/) is removed by the next run that reaches it");
  }
  hosts_.final_sweep().sweeping_lost_hosts = false;
}

void Engine::ConfirmRemovalsLocked(MutexLock& lock) {
  hosts_.final_sweep().confirms_posted = false;
  lock.Unlock();
  boost::asio::post(*io_, [this] {
    // The copies go now rather than at the shutdown, so that a host that
    // dies before it acted on them is known and swept below.
    RemoveRemoteCopies();
    std::vector<HostId> asked;
    {
      MutexLock guard(&mu_);
      for (HostId h = 0; h < hosts_.size(); ++h) {
        HostEntry& host = *hosts_[h];
        if (host.shared || !host.usable) continue;
        host.confirming = true;
        asked.push_back(h);
      }
      hosts_.final_sweep().confirms_posted = true;
      finished_cv_.notify_all();
    }
    for (HostId h : asked) ConfirmRemovals(h);
  });
  lock.Lock();
  WaitForHostsLocked(lock, kConfirmTime, hosts_.final_sweep().confirms_posted,
                     &HostEntry::confirming);
  for (HostId h = 0; h < hosts_.size(); ++h) {
    if (!hosts_[h]->confirming) continue;
    TakeForLostAtTheEndLocked(
        h, "no answer in " + std::to_string(static_cast<int>(kConfirmTime)) +
               " s to the run's last removals");
  }
}

void Engine::ConfirmRemovals(HostId h) {
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
      TakeForLostAtTheEndLocked(h, answer.status().message());
    }
    finished_cv_.notify_all();
  });
}

void Engine::TakeForLostAtTheEndLocked(HostId h, const std::string& why) {
  HostEntry& host = *hosts_[h];
  host.confirming = false;
  if (!host.usable) return;
  // The run is over: nothing to rewind; what it left there is swept.
  host.usable = false;
  host.left_behind = true;
  recorder_.RecordHostLost(mu_, h, why);
  const std::string line = "host " + host.name + " was lost (" + why + ")";
  stats_.notes.push_back(line);
  Sayf(console_.messages(), MessageKind::kHostEvent, "gsrt: %s\n",
       line.c_str());
}

void Engine::BeginFinalSweep() {
  std::vector<HostId> lost;
  std::vector<std::string> lines;
  {
    MutexLock lock(&mu_);
    hosts_.final_sweep().until = clock_->Now() + kFinalSweepTime;
    for (HostId h = 0; h < hosts_.size(); ++h) {
      HostEntry& host = *hosts_[h];
      if (host.shared) continue;
      if (host.usable && !host.adapter->connected()) {
        // Its connection ended after its last job (an agent or a machine
        // killed): nothing noticed, and the copies removed a moment ago
        // never reached it.
        TakeForLostAtTheEndLocked(h, "its connection had ended");
      }
      if (host.usable || !host.left_behind) continue;
      host.final_try = true;
      lost.push_back(h);
      lines.push_back("trying host " + host.name + " again for up to " +
                      std::to_string(static_cast<int>(kFinalSweepTime)) +
                      " s, to remove what this run left in its work dir");
    }
    hosts_.final_sweep().sweeping_lost_hosts = !lost.empty();
    hosts_.final_sweep().begun = true;
    finished_cv_.notify_all();
  }
  for (const std::string& line : lines) {
    Sayf(console_.messages(), MessageKind::kHostEvent, "gsrt: %s\n",
         line.c_str());
  }
  for (HostId h : lost) {
    if (hosts_[h]->reconnect_timer) hosts_[h]->reconnect_timer->Cancel();
    bool busy;
    {
      MutexLock lock(&mu_);
      busy = hosts_[h]->reconnecting;  // its answer ends the try
    }
    if (!busy) ReconnectNow(h);
  }
}

bool Engine::FinalReconnectEnded(HostId h, const Status& s) {
  {
    MutexLock lock(&mu_);
    if (stopping_ || !hosts_.final_sweep().sweeping_lost_hosts ||
        !hosts_[h]->final_try)
      return false;
    ReconnectAnsweredLocked(h, s.ok());
  }
  if (!s.ok() &&
      clock_->Now() + kFinalSweepEvery < hosts_.final_sweep().until) {
    hosts_[h]->reconnect_timer =
        clock_->After(kFinalSweepEvery, [this, h] { ReconnectNow(h); });
    return true;
  }
  if (!s.ok()) {
    MutexLock lock(&mu_);
    hosts_[h]->final_try = false;
    finished_cv_.notify_all();
    return true;
  }
  SweepHost(h);
  // Done once the agent answers after the sweep; a host killed again
  // meanwhile is tried again while time remains.
  hosts_[h]->adapter->Probe([this, h](StatusOr<HostProbe> answer) {
    MutexLock lock(&mu_);
    HostEntry& host = *hosts_[h];
    if (!hosts_.final_sweep().sweeping_lost_hosts || !host.final_try) return;
    if (!Answered(answer)) {
      host.usable = false;
      host.left_behind = true;
      if (clock_->Now() + kFinalSweepEvery < hosts_.final_sweep().until) {
        host.reconnect_timer =
            clock_->After(kFinalSweepEvery, [this, h] { ReconnectNow(h); });
        return;
      }
    }
    host.final_try = false;
    finished_cv_.notify_all();
  });
  return true;
}

}  // namespace gs
