#include "runtime/dashboard/dashboard_state.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "runtime/observe/slot_lanes.h"

namespace gs {

void DashboardState::OnRunStarted(Seconds started,
                                  const std::vector<std::string>& hosts) {
  std::lock_guard<std::mutex> lock(mu_);
  started_ = started;
  for (const std::string& h : hosts) hosts_[h];
  Changed();
}

void DashboardState::OnTaskSubmitted(const TaskRecord& task) {
  std::lock_guard<std::mutex> lock(mu_);
  task_op_[task.task] = task.operation;
  ++ops_[task.operation].waiting;
  ++submitted_;
  Changed();
}

void DashboardState::TaskRunningLocked(TaskId task,
                                       const std::string& operation) {
  if (running_jobs_[task]++ == 0) {
    OpCounts& c = ops_[operation];
    --c.waiting;
    ++c.running;
  }
}

void DashboardState::OnJobStarted(const JobStart& job) {
  std::lock_guard<std::mutex> lock(mu_);
  HostView& h = hosts_[job.host];
  if (job.slots > 0) h.slots = job.slots;
  if (job.queued) {
    // Its task still waits: the host holds it until a slot frees.
    ++h.queued;
    queued_jobs_.insert(job.job);
  } else {
    ++h.running;
    TaskRunningLocked(job.task, job.operation);
  }
  Changed();
}

void DashboardState::OnJobRunning(const JobStart& job) {
  std::lock_guard<std::mutex> lock(mu_);
  if (queued_jobs_.erase(job.job) == 0) return;
  HostView& h = hosts_[job.host];
  h.queued = std::max<int64_t>(0, h.queued - 1);
  ++h.running;
  TaskRunningLocked(job.task, job.operation);
  Changed();
}

void DashboardState::OnJobEnded(const JobRecord& job) {
  std::lock_guard<std::mutex> lock(mu_);
  HostView& h = hosts_[job.host];
  const bool was_queued = queued_jobs_.erase(job.job) > 0;
  if (was_queued) {
    h.queued = std::max<int64_t>(0, h.queued - 1);
  } else {
    h.running = std::max<int64_t>(0, h.running - 1);
  }
  ++h.jobs;
  if (job.outcome == OutcomeClass::kOk) ++h.ok;
  if (job.outcome == OutcomeClass::kInfra) ++h.infra;
  if (job.started > 0 && job.submitted > 0 && job.started >= job.submitted) {
    h.wait_last = job.started - job.submitted;
    h.wait_sum += h.wait_last;
    ++h.waits;
  }
  auto r = was_queued ? running_jobs_.end() : running_jobs_.find(job.task);
  if (r != running_jobs_.end() && --r->second == 0) {
    running_jobs_.erase(r);
    // Back to waiting until the task's end (or its next attempt) says more.
    OpCounts& c = ops_[job.operation];
    --c.running;
    ++c.waiting;
  }
  Attempt a;
  a.host = job.host;
  a.operation = job.operation;
  a.task = job.task;
  a.start = job.started > 0 ? job.started : job.submitted;
  a.end = std::max(a.start, job.ended);
  a.outcome = std::string(OutcomeClassName(job.outcome));
  // A slot free over the attempt (attempts arrive as they end), as the
  // trace chooses it: never more lanes than attempts overlapped.
  a.slot = static_cast<int>(TakeSlotLane(&h.lane_ends_ms,
                                         static_cast<int64_t>(a.start * 1000),
                                         static_cast<int64_t>(a.end * 1000)));
  stream_.push_back(std::move(a));
  if (stream_.size() > kStreamLength) stream_.pop_front();
  if (job.outcome != OutcomeClass::kOk &&
      job.outcome != OutcomeClass::kCancelled) {
    failures_.push_back(
        {job.task, job.operation, job.host, job.error, job.log_dir});
    if (failures_.size() > 100) failures_.erase(failures_.begin());
  }
  Changed();
}

void DashboardState::OnEvent(const RunEvent& event) {
  if (event.host.empty()) return;
  std::lock_guard<std::mutex> lock(mu_);
  HostView& h = hosts_[event.host];
  if (event.kind == "host_up") {
    h.state = "up";
  } else if (event.kind == "host_suspect") {
    h.state = "suspect";
  } else if (event.kind == "host_down") {
    h.state = "down";
    // The engine charges a lost host to its history (host_failures), which
    // is what distrust counts; this run's share.
    ++h.distrust;
  } else {
    return;
  }
  h.why = event.detail;
  Changed();
}

void DashboardState::OnTaskEnded(const TaskEnd& end) {
  std::lock_guard<std::mutex> lock(mu_);
  auto op = task_op_.find(end.task);
  if (op == task_op_.end()) return;
  OpCounts& c = ops_[op->second];
  // A task ends from waiting (a futile one never ran).
  --c.waiting;
  if (end.state == "done" || end.state == "reused") ++c.done;
  if (end.state == "reused") ++c.reused;
  if (end.state == "failed") ++c.failed;
  if (end.state == "futile") ++c.futile;
  if (end.state == "cancelled") ++c.cancelled;
  ++finished_;
  task_op_.erase(op);
  Changed();
}

void DashboardState::OnRunEnded(Seconds ended, RunStatus status) {
  std::lock_guard<std::mutex> lock(mu_);
  ended_ = ended;
  status_ = std::string(RunStatusName(status));
  Changed();
}

uint64_t DashboardState::version() const {
  std::lock_guard<std::mutex> lock(mu_);
  return version_;
}

std::string DashboardState::SnapshotJson(Seconds now) const {
  using nlohmann::json;
  std::lock_guard<std::mutex> lock(mu_);
  json j;
  j["status"] = status_;
  j["started"] = started_;
  const Seconds elapsed = (ended_ > 0 ? ended_ : now) - started_;
  j["elapsed_s"] = elapsed;
  j["submitted"] = submitted_;
  j["finished"] = finished_;
  // The rate so far, applied to what is left; null until something ended.
  if (finished_ > 0 && ended_ == 0 && elapsed > 0) {
    j["eta_s"] = elapsed * double(submitted_ - finished_) / finished_;
  } else {
    j["eta_s"] = nullptr;
  }
  json ops = json::array();
  for (const auto& [name, c] : ops_) {
    ops.push_back({{"operation", name},
                   {"waiting", c.waiting},
                   {"running", c.running},
                   {"done", c.done},
                   {"failed", c.failed},
                   {"futile", c.futile},
                   {"cancelled", c.cancelled},
                   {"reused", c.reused}});
  }
  j["operations"] = std::move(ops);
  json hosts = json::array();
  for (const auto& [name, h] : hosts_) {
    hosts.push_back(
        {{"host", name},
         {"state", h.state},
         {"why", h.why},
         {"running", h.running},
         {"queued", h.queued},
         {"slots", h.slots > 0 ? json(h.slots) : json(nullptr)},
         {"slots_seen", h.lane_ends_ms.size()},
         {"jobs", h.jobs},
         {"ok", h.ok},
         {"infra", h.infra},
         {"distrust", h.distrust},
         {"queue_wait_mean_s",
          h.waits ? json(h.wait_sum / h.waits) : json(nullptr)},
         {"queue_wait_last_s", h.waits ? json(h.wait_last) : json(nullptr)}});
  }
  j["hosts"] = std::move(hosts);
  json stream = json::array();
  for (const Attempt& a : stream_) {
    stream.push_back({{"host", a.host},
                      {"slot", a.slot},
                      {"operation", a.operation},
                      {"task", a.task},
                      {"start", a.start - started_},
                      {"end", a.end - started_},
                      {"outcome", a.outcome}});
  }
  j["stream"] = std::move(stream);
  json failures = json::array();
  for (const Failure& f : failures_) {
    failures.push_back({{"task", f.task},
                        {"operation", f.operation},
                        {"host", f.host},
                        {"error", f.error},
                        {"log_dir", f.log_dir}});
  }
  j["failures"] = std::move(failures);
  return j.dump();
}

}  // namespace gs
