// What the engine does when a host is lost (paper 000, GTP/c/r): its
// copies of versions are dropped, and every version that an unfinished
// task still needs and that only that host held is recomputed by rewinding
// its producer, recursively; a copy anywhere else (another host, the
// master) makes that unnecessary. The planning is the pure PlanRewind.
#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <cstdio>

#include "runtime/engine/engine.h"
#include "runtime/engine/engine_hosts.h"
#include "runtime/graph/rewind.h"

namespace gs {

void Engine::HostLostLocked(HostId lost, const std::string& why) {
  HostEntry& host = *hosts_[lost];
  host.usable = false;
  host.reconnect_delay = 0;
  if (!host.shared) host.left_behind = true;
  // Volatile policies learn the loss now, not at the next slot.
  hosts_.ObserveChange(lost, HostAvail::kDown);
  // Timers run on the engine thread, where this is called from.
  boost::asio::post(*io_, [this, lost] { ScheduleReconnect(lost); });
  recorder_.RecordHostLost(mu_, lost, why);
  if (recorder_.watched()) {
    RunEvent e{"host_down", clock_->Now()};
    e.host = host.name;
    e.detail = why;
    recorder_.ReportEvent(mu_, std::move(e));
  }
  RewindLocked(lost, kNoVersion, why);
}

void Engine::CopyLostLocked(VersionId v, HostId host, const std::string& why) {
  TransfersChangedLocked();
  const bool another = data_.DropCopy(v, host);
  const Version& ver = graph_.version(v);
  if (ver.state != VersionState::kAvailable || ver.on_master || another) {
    return;  // another copy serves
  }
  RewindLocked(host, v, why);
}

void Engine::RewindLocked(HostId lost_host, VersionId only,
                          const std::string& why) {
  // When only one copy is lost, a host id nobody else has stands for that
  // copy, so no job and no other copy is touched.
  const HostId lost =
      only == kNoVersion ? lost_host : static_cast<HostId>(hosts_.size() + 1);
  std::vector<RewindTask> tasks = RewindTasksLocked();
  std::vector<RewindVersion> versions = RewindVersionsLocked(lost, only);
  auto plan = PlanRewind(tasks, versions, lost,
                         options_.hooks.rewind == "gtp-r" ? RewindMode::kGtpR
                                                          : RewindMode::kGtpCR);
  if (!plan.ok()) {
    Sayf(console_.messages(), MessageKind::kError,
         "gsrt: cannot plan the recovery from losing %s: %s\n",
         hosts_[lost_host]->name.c_str(), plan.status().message().c_str());
    return;
  }
  uint32_t finished = ApplyRewindLocked(*plan, lost, only);
  ReportRewindLocked(*plan, lost_host, only, why, finished);
}

std::vector<RewindVersion> Engine::RewindVersionsLocked(HostId lost,
                                                        VersionId only) const {
  // The master's machine is one more "host" for the plan.
  const HostId master = static_cast<HostId>(hosts_.size());
  std::vector<RewindVersion> versions(graph_.num_versions());
  for (VersionId v = 0; v < graph_.num_versions(); ++v) {
    const Version& ver = graph_.version(v);
    versions[v].producer = ver.producer;
    if (ver.state != VersionState::kAvailable) continue;
    if (ver.on_master) versions[v].copies.push_back(master);
    for (HostId h : data_.Holders(v)) versions[v].copies.push_back(h);
    // A version whose data was already collected (superseded, nobody left
    // to read it) is as good as lost: if a rewound task needs it again,
    // its producer must rewind too.
    if (versions[v].copies.empty() && ver.number > 0) {
      versions[v].copies.push_back(lost);
    }
    // Restart from scratch: every result a task made counts as lost.
    if (options_.hooks.rewind == "restart" && ver.producer != kMasterTask) {
      versions[v].copies = {lost};
    }
  }
  if (only != kNoVersion) versions[only].copies = {lost};
  return versions;
}

std::vector<RewindTask> Engine::RewindTasksLocked() const {
  const HostId master = static_cast<HostId>(hosts_.size());
  std::vector<RewindTask> tasks(graph_.num_tasks());
  for (TaskId t = 0; t < graph_.num_tasks(); ++t) {
    const Task& task = graph_.task(t);
    RewindTask& rt = tasks[t];
    switch (task.state) {
      case TaskState::kWaiting:
      case TaskState::kReady:
        rt.state = RewindTask::State::kPending;
        break;
      case TaskState::kRunning:
        rt.state = RewindTask::State::kRunning;
        break;
      case TaskState::kDone:
        rt.state = RewindTask::State::kDone;
        break;
      default:
        rt.state = RewindTask::State::kFailed;
        break;
    }
    if (t < task_host_.size()) rt.host = task_host_[t];
    // Tasks that ran on a host sharing the master's files left their
    // outputs with the master.
    if (rt.host != kNoHost && hosts_[rt.host]->shared) rt.host = master;
    const FileAccess* acc = graph_.accesses(t);
    for (uint32_t i = 0; i < task.num_files; ++i) {
      if (acc[i].in != kNoVersion) rt.inputs.push_back(acc[i].in);
      if (acc[i].out != kNoVersion) rt.outputs.push_back(acc[i].out);
    }
  }
  // The master needs every file's final version at GS_Off: a pending
  // pseudo-task reading them keeps those recoverable too.
  RewindTask finals;
  for (FileId f = 0; f < files_.size(); ++f) {
    uint32_t latest = files_.latest(f);
    if (latest != FileTable::kNone && graph_.version(latest).number > 0) {
      finals.inputs.push_back(latest);
    }
  }
  tasks.push_back(std::move(finals));
  return tasks;
}

uint32_t Engine::ApplyRewindLocked(const RewindPlan& plan, HostId lost,
                                   VersionId only) {
  TransfersChangedLocked();
  for (VersionId v : plan.dropped) {
    if (only != kNoVersion) break;  // the copy is already forgotten
    data_.DropCopy(v, lost);
  }
  // Producers first (the plan lists consumers first): their outputs are
  // pending again and every unfinished reader waits for them.
  uint32_t finished = 0;
  for (auto it = plan.rewound.rbegin(); it != plan.rewound.rend(); ++it) {
    TaskId t = *it;
    Task& task = graph_.task(t);
    if (task.state != TaskState::kDone) continue;  // running: its job fails
    ++finished;
    --stats_.done;
    const FileAccess* acc = graph_.accesses(t);
    for (uint32_t i = 0; i < task.num_files; ++i) {
      if (acc[i].in != kNoVersion) graph_.AddReader(acc[i].in);
      if (acc[i].out != kNoVersion) {
        graph_.version(acc[i].out).state = VersionState::kPending;
      }
    }
    RequeueLocked(t);
  }
  RewaitReadersLocked();
  // Rewound tasks may be ready now; this may run outside a scheduling
  // round (a failed fetch), so ask for one.
  if (plan.rt > 0) WakeLocked();
  return finished;
}

void Engine::RewaitReadersLocked() {
  // Unfinished readers of versions that are pending again wait for them.
  for (TaskId t = 0; t < graph_.num_tasks(); ++t) {
    Task& task = graph_.task(t);
    if (task.state != TaskState::kReady && task.state != TaskState::kWaiting)
      continue;
    const FileAccess* acc = graph_.accesses(t);
    bool waits = false;
    for (uint32_t i = 0; i < task.num_files && !waits; ++i) {
      waits = acc[i].in != kNoVersion &&
              graph_.version(acc[i].in).state == VersionState::kPending;
    }
    if (!waits) continue;
    if (task.state == TaskState::kReady) {
      scheduler_.RemoveIf([t](TaskId id) { return id == t; });
    }
    // Rebuild its waiting state from scratch (it may already wait on some).
    for (uint32_t i = 0; i < task.num_files; ++i) {
      if (acc[i].in == kNoVersion) continue;
      graph_.RemoveWaiting(acc[i].in, t);
    }
    RequeueLocked(t);
  }
}

void Engine::ReportRewindLocked(const RewindPlan& plan, HostId lost_host,
                                VersionId only, const std::string& why,
                                uint32_t finished) {
  const HostEntry& host = *hosts_[lost_host];
  for (VersionId v : plan.unrecoverable) {
    Sayf(console_.messages(), MessageKind::kError,
         "gsrt: the only copy of a file the master wrote (%s) was on "
         "%s; the tasks reading it cannot run\n",
         files_.path(graph_.version(v).file).c_str(), host.name.c_str());
  }
  if (only == kNoVersion) ++stats_.hosts_lost;
  stats_.rewound_tasks += plan.rt;
  stats_.rewound_levels = std::max<uint64_t>(stats_.rewound_levels, plan.lr);
  const std::string what = only == kNoVersion
                               ? "host " + host.name + " was lost"
                               : "the copy of " +
                                     files_.path(graph_.version(only).file) +
                                     " on " + host.name + " was lost";
  stats_.notes.push_back(what + " (" + why + "): rewound " +
                         std::to_string(plan.rt) + " tasks (RT), " +
                         std::to_string(finished) + " of them finished, over " +
                         std::to_string(plan.lr) + " levels (LR)");
  if (recorder_.watched() && plan.rt > 0) {
    RunEvent e{"rewind", clock_->Now()};
    e.host = host.name;
    e.detail = what + " (" + why + "): rewound " + std::to_string(plan.rt) +
               " tasks over " + std::to_string(plan.lr) + " levels";
    recorder_.ReportEvent(mu_, std::move(e));
  }
  Sayf(console_.messages(), MessageKind::kHostEvent,
       "\ngsrt: %s (%s): rewinding %u tasks (RT), %u levels (LR)\n",
       what.c_str(), why.c_str(), plan.rt, plan.lr);
}

void Engine::ScheduleReconnect(HostId h) {
  HostEntry& host = *hosts_[h];
  {
    MutexLock lock(&mu_);
    if (stopping_ || host.usable) return;
    host.reconnect_delay = host.reconnect_delay == 0
                               ? options_.reconnect_backoff
                               : std::min(host.reconnect_delay * 2,
                                          options_.reconnect_backoff_max);
  }
  host.reconnect_timer = clock_->After(host.reconnect_delay, [this, h] {
    {
      MutexLock lock(&mu_);
      if (stopping_) return;
    }
    ReconnectNow(h);
  });
}

void Engine::ReconnectNow(HostId h) {
  {
    MutexLock lock(&mu_);
    hosts_[h]->reconnecting = true;
  }
  WatchedCall watched(loop_watchdog_.get(),
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
  if (FinalReconnectEnded(h, s)) return;
  std::vector<Dispatch> out;
  std::string failed;  // said when the reason is new, not at every attempt
  {
    MutexLock lock(&mu_);
    if (stopping_) return;
    HostEntry& host = *hosts_[h];
    ReconnectAnsweredLocked(h, s.ok());
    if (s.ok()) {
      stats_.notes.push_back("host " + host.name + " is back");
      if (recorder_.watched()) {
        RunEvent e{"host_up", clock_->Now()};
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
  SweepHost(h);
  Send(std::move(out));
}

}  // namespace gs
