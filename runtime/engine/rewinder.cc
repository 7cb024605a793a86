#include "runtime/engine/rewinder.h"

#include <algorithm>
#include <utility>

namespace gs {

std::optional<Rewinder::Mode> Rewinder::ParseMode(const std::string& name) {
  if (name == "gtp-c-r") return Mode::kGtpCR;
  if (name == "gtp-r") return Mode::kGtpR;
  if (name == "restart") return Mode::kRestart;
  return std::nullopt;
}

Rewinder::Rewinder(Mode mode, TaskGraph& graph, const FileTable& files,
                   DataPlaces& data, RunStats& stats, MessageSink& messages,
                   std::unique_ptr<Site> site)
    : mode_(mode),
      graph_(graph),
      files_(files),
      data_(data),
      stats_(stats),
      messages_(messages),
      site_(std::move(site)) {}

void Rewinder::HostLost(const Mutex& mu, HostId lost, const std::string& why) {
  Rewind(lost, kNoVersion, why);
}

void Rewinder::CopyLost(const Mutex& mu, VersionId v, HostId host,
                        const std::string& why) {
  site_->TransfersChanged();
  const bool another = data_.DropCopy(v, host);
  const Version& ver = graph_.version(v);
  if (ver.state != VersionState::kAvailable || ver.on_master || another) {
    return;  // another copy serves
  }
  Rewind(host, v, why);
}

void Rewinder::SetHostOf(TaskId t, HostId host) {
  if (task_host_.size() <= t) {
    task_host_.resize(std::max<size_t>(t + 1, graph_.num_tasks()), kNoHost);
  }
  task_host_[t] = host;
}

void Rewinder::Rewind(HostId lost_host, VersionId only,
                      const std::string& why) {
  // When only one copy is lost, a host id nobody else has stands for that
  // copy, so no job and no other copy is touched.
  const HostId lost = only == kNoVersion
                          ? lost_host
                          : static_cast<HostId>(site_->NumHosts() + 1);
  std::vector<RewindTask> tasks = Tasks();
  std::vector<RewindVersion> versions = Versions(lost, only);
  auto plan =
      PlanRewind(tasks, versions, lost,
                 mode_ == Mode::kGtpR ? RewindMode::kGtpR : RewindMode::kGtpCR);
  if (!plan.ok()) {
    Sayf(messages_, MessageKind::kError,
         "gsrt: cannot plan the recovery from losing %s: %s\n",
         site_->HostName(lost_host).c_str(), plan.status().message().c_str());
    return;
  }
  uint32_t finished = Apply(*plan, lost, only);
  Report(*plan, lost_host, only, why, finished);
}

std::vector<RewindVersion> Rewinder::Versions(HostId lost,
                                              VersionId only) const {
  // The master's machine is one more "host" for the plan.
  const HostId master = static_cast<HostId>(site_->NumHosts());
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
    if (mode_ == Mode::kRestart && ver.producer != kMasterTask) {
      versions[v].copies = {lost};
    }
  }
  if (only != kNoVersion) versions[only].copies = {lost};
  return versions;
}

std::vector<RewindTask> Rewinder::Tasks() const {
  const HostId master = static_cast<HostId>(site_->NumHosts());
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
    if (rt.host != kNoHost && site_->SharesMasterFiles(rt.host)) {
      rt.host = master;
    }
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

uint32_t Rewinder::Apply(const RewindPlan& plan, HostId lost, VersionId only) {
  site_->TransfersChanged();
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
    site_->Requeue(t);
  }
  RewaitReaders();
  // Rewound tasks may be ready now; this may run outside a scheduling
  // round (a failed fetch), so ask for one.
  if (plan.rt > 0) site_->Wake();
  return finished;
}

void Rewinder::RewaitReaders() {
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
    if (task.state == TaskState::kReady) site_->Unready(t);
    // Rebuild its waiting state from scratch (it may already wait on some).
    for (uint32_t i = 0; i < task.num_files; ++i) {
      if (acc[i].in == kNoVersion) continue;
      graph_.RemoveWaiting(acc[i].in, t);
    }
    site_->Requeue(t);
  }
}

namespace {

// "1 task", "3 tasks".
std::string Counted(uint64_t n, const char* noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

}  // namespace

void Rewinder::Report(const RewindPlan& plan, HostId lost_host, VersionId only,
                      const std::string& why, uint32_t finished) {
  const std::string host = site_->HostName(lost_host);
  for (VersionId v : plan.unrecoverable) {
    Sayf(messages_, MessageKind::kError,
         "gsrt: the only copy of a file the master wrote (%s) was on "
         "%s; the tasks reading it cannot run\n",
         files_.path(graph_.version(v).file).c_str(), host.c_str());
  }
  if (only == kNoVersion) ++stats_.hosts_lost;
  stats_.rewound_tasks += plan.rt;
  stats_.rewound_levels = std::max<uint64_t>(stats_.rewound_levels, plan.lr);
  const std::string what = only == kNoVersion
                               ? "host " + host + " was lost"
                               : "the copy of " +
                                     files_.path(graph_.version(only).file) +
                                     " on " + host + " was lost";
  // Plain words here; the paper's RT and LR are named in docs/ only.
  const std::string again = Counted(plan.rt, "task") + " run again";
  const std::string back = Counted(plan.lr, "level") + " of the graph back";
  stats_.notes.push_back(what + " (" + why + "): " + again + " (" +
                         std::to_string(finished) + " of them had finished), " +
                         back);
  if (plan.rt > 0) {
    site_->Rewound(host, what + " (" + why + "): " + again + ", " + back);
  }
  Sayf(messages_, MessageKind::kHostEvent, "\ngsrt: %s (%s): %s, %s\n",
       what.c_str(), why.c_str(), again.c_str(), back.c_str());
}

}  // namespace gs
