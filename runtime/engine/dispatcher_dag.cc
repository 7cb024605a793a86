// The whole DAG as GTP (paper 000) sees it, for a policy that plans over
// it (runtime/sched/policies_gtp.h): every task not failed, with its
// execution time on each host, where it is placed and how far it got, and
// one edge per input version a task of the graph produces.
#include <algorithm>
#include <functional>
#include <unordered_map>

#include "runtime/engine/dispatcher.h"
#include "runtime/sched/gtp_plan.h"

namespace gs {

namespace {

// A pending version's size is not known before it is written: the mean of
// the versions tasks wrote so far stands in.
double MeanWrittenSize(const TaskGraph& graph) {
  double written = 0, bytes = 0;
  for (VersionId v = 0; v < graph.num_versions(); ++v) {
    const Version& ver = graph.version(v);
    if (ver.state == VersionState::kAvailable && ver.producer != kMasterTask)
      ++written, bytes += static_cast<double>(ver.size);
  }
  return written > 0 ? bytes / written : 0;
}

// One edge per input version of a planned task that another planned task
// produces, with the copies of its data; a finished producer is placed
// where a copy of its result is.
void AddEdges(
    const TaskGraph& graph, const std::vector<size_t>& index,
    const std::vector<TaskId>& ids,
    const std::unordered_map<VersionId, std::vector<HostId>>& remote_copies,
    const std::function<bool(VersionId, HostId)>& has_copy, GtpInput* in) {
  const double mean_size = MeanWrittenSize(graph);
  for (size_t k = 0; k < ids.size(); ++k) {
    const Task& task = graph.task(ids[k]);
    const FileAccess* acc = graph.accesses(ids[k]);
    for (uint32_t i = 0; i < task.num_files; ++i) {
      const VersionId v = acc[i].in;
      if (v == kNoVersion) continue;
      const Version& ver = graph.version(v);
      if (ver.producer == kMasterTask || index[ver.producer] == kGtpNone)
        continue;
      GtpEdge e;
      e.from = index[ver.producer];
      e.to = k;
      const bool written = ver.state == VersionState::kAvailable;
      e.data = written ? static_cast<double>(ver.size) : mean_size;
      const size_t placed = in->tasks[k].placed;
      e.done = placed != kGtpNone && written &&
                       has_copy(v, static_cast<HostId>(placed))
                   ? 1
                   : 0;
      if (written) {
        if (ver.on_master) e.copies.push_back(kGtpMaster);
        if (auto it = remote_copies.find(v); it != remote_copies.end())
          for (HostId h : it->second) e.copies.push_back(h);
        GtpTask& producer = in->tasks[e.from];
        if (producer.placed == kGtpNone && !e.copies.empty() &&
            e.copies.front() != kGtpMaster)
          producer.placed = e.copies.front();
      }
      in->edges.push_back(std::move(e));
    }
  }
}

}  // namespace

GtpInput Dispatcher::DagForPlanning(std::vector<TaskId>* ids) const {
  GtpInput in;
  in.now = clock_->Now();
  const size_t hosts = hosts_.size();
  for (const auto& host : hosts_) in.avail.push_back(host->usable ? 1 : 0);
  std::vector<size_t> index(graph_.num_tasks(), kGtpNone);
  ids->clear();
  for (TaskId t = 0; t < graph_.num_tasks(); ++t) {
    TaskState s = graph_.task(t).state;
    if (s == TaskState::kFailed || s == TaskState::kFutile) continue;
    index[t] = ids->size();
    ids->push_back(t);
  }
  in.tasks.resize(ids->size());
  for (size_t k = 0; k < ids->size(); ++k) {
    const Task& task = graph_.task((*ids)[k]);
    GtpTask& g = in.tasks[k];
    for (HostId h = 0; h < hosts; ++h)
      g.w.push_back(predictor_->ExecTime(task.op, h));
    if (task.state == TaskState::kDone) {
      g.computed = 1;
      g.finished_at = in.now;  // when does not matter: its data is there
    }
  }
  // Running tasks are placed where their job is, with the share of its
  // predicted time already spent (staging included) as kappa^c.
  for (const auto& [id, job] : jobs_) {
    const size_t k = index[job.task];
    if (k == kGtpNone || job.replica) continue;
    GtpTask& g = in.tasks[k];
    g.placed = job.host;
    const Seconds span = job.predicted_end - job.submitted;
    g.computed =
        span > 0 ? std::clamp((in.now - job.submitted) / span, 0.0, 0.999) : 0;
  }
  AddEdges(
      graph_, index, *ids, data_.copies(),
      [this](VersionId v, HostId h) { return data_.HasCopy(v, h); }, &in);
  // gsrt moves data through the master: from a host, up then down.
  // Called by the planner within the round (the engine's mutex held).
  in.transfer = [this](const GtpEdge& edge, size_t src, size_t dst,
                       double remaining) {
    const uint64_t size = static_cast<uint64_t>(edge.data * remaining + 0.5);
    if (hosts_[dst]->shared && src == kGtpMaster) return Seconds{0};
    Seconds t = hosts_[dst]->shared ? 0 : data_.LinkTime(dst, size);
    if (src != kGtpMaster && !hosts_[src]->shared)
      t += data_.LinkTime(src, size);
    return t;
  };
  return in;
}

}  // namespace gs
