// Scheduling rounds: the engine thread asks the policy where ready tasks go
// (runtime/sched/scheduler.h), books each placement as a job and sends it,
// after staging its inputs when the host lacks them (engine_data.cc). A
// round follows every submission burst, every job's end and every host
// that comes back.
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

#include "runtime/engine/engine.h"
#include "runtime/engine/engine_hosts.h"
#include "runtime/engine/job_builder.h"

namespace gs {

void Engine::WakeLocked() {
  if (wake_posted_ || !io_) return;
  wake_posted_ = true;
  boost::asio::post(*io_, [this] { RunSchedule(); });
}

void Engine::RunSchedule() {
  std::vector<Dispatch> out;
  {
    std::lock_guard<std::mutex> lock(mu_);
    wake_posted_ = false;
    ScheduleLocked(&out);
  }
  Send(std::move(out));
}

void Engine::HostStatesLocked(std::vector<HostState>* states) const {
  states->resize(hosts_.size());
  for (HostId h = 0; h < hosts_.size(); ++h) {
    HostState& state = (*states)[h];
    state.busy_until.clear();
    state.busy_needs.clear();
    state.usable = hosts_[h]->usable;
    state.memory_gb = hosts_[h]->memory_gb;
    // Jobs still staging their inputs hold cores the adapter does not know
    // about yet; adapters count free slots in cores.
    state.slots =
        static_cast<int>(hosts_[h]->running_cores - hosts_[h]->staging_cores) +
        hosts_[h]->adapter->FreeSlots();
  }
}

void Engine::ScheduleLocked(std::vector<Dispatch>* out) {
  // With replication, slots freed once nothing waits run replicas (WQR
  // replicates on the processors that become free after the last task was
  // placed), so a round is needed even with no task ready.
  if (scheduler_.num_ready() == 0 &&
      (replication_ == ReplicationMode::kOff || instances_.empty()))
    return;
  // Reused between rounds: a round follows every job's end.
  std::vector<HostState>& states = states_scratch_;
  HostStatesLocked(&states);
  for (const auto& [id, job] : jobs_) {
    states[job.host].AddBusy(job.predicted_end, job.need);
  }
  SchedulingInput in{clock_->Now(), &states, predictor_.get()};
  if (replication_ == ReplicationMode::kDynamic &&
      scheduler_.policy().needs().host_order) {
    scheduler_.mutable_policy()->SetHostOrder(HostOrderLocked());
  }
  std::vector<Placement> placed = scheduler_.Schedule(in);
  for (const Placement& p : placed) {
    out->push_back(DispatchLocked(p.task, p.host, p.predicted_end, false));
  }
  if (replication_ != ReplicationMode::kOff && scheduler_.num_ready() == 0) {
    ReplicateLocked(states, placed, out);
  }
}

Engine::Dispatch Engine::DispatchLocked(TaskId t, HostId h,
                                        Seconds predicted_end, bool replica) {
  Task& task = graph_.task(t);
  task.state = TaskState::kRunning;
  // Replicas are not retries: they do not spend the task's budget.
  if (!replica) ++task.attempts;
  if (task_host_.size() <= t) task_host_.resize(graph_.num_tasks(), kNoHost);
  if (!replica) task_host_[t] = h;
  HostEntry& host = *hosts_[h];
  JobSpec spec = BuildJobSpec(
      graph_, t, ops_[task.op], [this, h](VersionId v) { return PathOn(v, h); },
      host.worker);
  spec.id = NextJobNumberLocked();
  const Need need = scheduler_.NeedOf(task.op);
  spec.cores = need.cores;
  spec.memory_gb = need.memory_gb;
  // runtime.timeout in the configuration wins over the IDL's @Timeout.
  if (auto it = options_.timeouts.find(spec.operation);
      it != options_.timeouts.end()) {
    spec.timeout = it->second;
  } else if (ops_[task.op].desc->timeout > 0) {
    spec.timeout = ops_[task.op].desc->timeout;
  }
  JobEntry entry{t,       h,  predicted_end, clock_->Now(), task.attempts,
                 replica, {}, need};
  if (replica && host.shared) {
    // Instances on hosts sharing the master's files would write the same
    // version files: a replica writes beside them and moves its outputs into
    // place only if it wins.
    for (JobParam& p : spec.params) {
      if (p.dest.empty()) continue;
      std::string final_path = p.dest;
      p.dest += ".replica" + std::to_string(spec.id);
      entry.replica_outputs.push_back({p.dest, final_path});
    }
  }
  if (WatchedLocked()) ReportJobStartLocked(spec.id, t, h, replica);
  jobs_.emplace(spec.id, std::move(entry));
  ++jobs_submitted_;
  instances_[t].push_back(spec.id);
  ++host.running;
  host.running_cores += need.cores;
  if (!replica) ++stats_.running;
  ++stats_.jobs;
  if (replica) ++stats_.replicas;
  ++stats_.jobs_per_host[host.name];
  std::vector<VersionId> inputs;
  const FileAccess* acc = graph_.accesses(t);
  for (uint32_t i = 0; i < task.num_files; ++i) {
    if (acc[i].in != kNoVersion && !HasCopyLocked(acc[i].in, h)) {
      inputs.push_back(acc[i].in);
    }
  }
  if (!inputs.empty()) {
    ++host.staging;
    host.staging_cores += need.cores;
  }
  return Dispatch{h, std::move(spec), std::move(inputs)};
}

void Engine::Send(std::vector<Dispatch> dispatches) {
  for (Dispatch& d : dispatches) {
    if (!d.inputs.empty()) {
      StageAndSubmit(std::move(d));
      continue;
    }
    hosts_[d.host]->adapter->Submit(
        std::move(d.spec),
        [this, host = d.host](JobReport report) { OnJobDone(host, report); });
  }
}

void Engine::RequeueLocked(TaskId t) {
  Task& task = graph_.task(t);
  const FileAccess* acc = graph_.accesses(t);
  task.missing_inputs = 0;
  for (uint32_t i = 0; i < task.num_files; ++i) {
    if (acc[i].in == kNoVersion) continue;
    Version& v = graph_.version(acc[i].in);
    if (v.state == VersionState::kAvailable) continue;
    ++task.missing_inputs;
    v.waiting.push_back(t);
  }
  task.state =
      task.missing_inputs == 0 ? TaskState::kReady : TaskState::kWaiting;
  if (task.state == TaskState::kReady) scheduler_.AddReady(t, task.op);
}

}  // namespace gs
