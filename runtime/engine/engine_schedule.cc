// Scheduling rounds: the engine thread asks the policy where ready tasks go
// (runtime/sched/scheduler.h), books each placement as a job and sends it,
// after staging its inputs when the host lacks them (engine_data.cc). A
// round follows every submission burst, every job's end and every host
// that comes back.
#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <map>
#include <optional>

#include "runtime/engine/engine.h"
#include "runtime/engine/engine_hosts.h"
#include "runtime/engine/job_builder.h"
#include "runtime/engine/resume_journal.h"
#include "runtime/sched/gtp_plan.h"
#include "runtime/sched/implementation_choice.h"
#include "runtime/sched/policies_gtp.h"

namespace gs {

Need NeedOfOperation(const gs_operation& op) {
  return Need{std::max(1, op.computing_units), std::max(0.0, op.memory_gb)};
}

namespace {

// The function the job runs and what it holds. An alternative has the
// called operation's parameters: only the function and its needs differ.
// runtime.timeout in the configuration wins over the IDL's @Timeout.
void SetWhatRuns(const gs_operation& runs, const Need& need,
                 const std::map<std::string, Seconds>& timeouts,
                 JobSpec* spec) {
  spec->operation = runs.name;
  spec->cores = need.cores;
  spec->memory_gb = need.memory_gb;
  if (auto it = timeouts.find(spec->operation); it != timeouts.end()) {
    spec->timeout = it->second;
  } else if (runs.timeout > 0) {
    spec->timeout = runs.timeout;
  }
}

}  // namespace

void Engine::WakeLocked() {
  if (wake_posted_ || !io_) return;
  wake_posted_ = true;
  boost::asio::post(*io_, [this] { RunSchedule(); });
}

void Engine::RunSchedule() {
  std::vector<Dispatch> out;
  {
    MutexLock lock(&mu_);
    wake_posted_ = false;
    ScheduleLocked(&out);
  }
  Send(std::move(out));
}

void Engine::ScheduleLocked(std::vector<Dispatch>* out) {
  // With replication, slots freed once nothing waits run replicas (WQR
  // replicates on the processors that become free after the last task was
  // placed), so a round is needed even with no task ready.
  if (scheduler_.num_ready() == 0 &&
      (replication_ == ReplicationMode::kOff || jobs_.instances().empty())) {
    TellBacklogLocked(0);
    return;
  }
  // Reused between rounds: a round follows every job's end.
  std::vector<HostState>& states = states_scratch_;
  hosts_.LearnHostStates(&states);
  for (const JobTable::Running& job : jobs_.running()) {
    states[job.host].AddBusy(job.predicted_end, job.need);
  }
  SchedulingInput in{clock_->Now(), &states, predictor_.get()};
  round_transfers_stable_ = hosts_.TransfersStable();
  if (replication_ == ReplicationMode::kDynamic &&
      scheduler_.policy().needs().host_order) {
    scheduler_.mutable_policy()->SetHostOrder(
        hosts_.Order(replication_ == ReplicationMode::kDynamic));
  }
  if (auto* dag = dynamic_cast<DagPlanningPolicy*>(scheduler_.mutable_policy());
      dag && dag->WantsDag(in.now, scheduler_.ready(), states)) {
    std::vector<TaskId> ids;
    GtpInput input = DagForPlanningLocked(&ids);
    dag->SetDag(input, std::move(ids));
  }
  std::vector<Placement> placed = scheduler_.Schedule(in);
  std::vector<const gs_operation*> implementations =
      ChooseImplementationsLocked(states, placed);
  for (size_t i = 0; i < placed.size(); ++i) {
    const Placement& p = placed[i];
    out->push_back(
        DispatchLocked(p.task, p.host, p.predicted_end, false,
                       implementations.empty() ? nullptr : implementations[i]));
  }
  if (replication_ != ReplicationMode::kOff && scheduler_.num_ready() == 0) {
    ReplicateLocked(states, placed, out);
  } else if (hosts_.any_prefetch() && replication_ == ReplicationMode::kOff &&
             scheduler_.num_ready() > 0) {
    PrefetchLocked(&states, out);
  }
  round_transfers_stable_.reset();
  TellBacklogLocked(scheduler_.num_ready());
}

void Engine::TellBacklogLocked(size_t backlog) {
  // When it starts, stops, doubles or halves: a round per job end would
  // otherwise cost a call per host each (a thousand simulated hosts).
  const size_t told = backlog_told_;
  const bool news = (backlog == 0) != (told == 0) || backlog >= 2 * told ||
                    2 * backlog <= told;
  if (!news || backlog == told) return;
  backlog_told_ = backlog;
  const int tasks = static_cast<int>(std::min<size_t>(backlog, 1 << 30));
  for (auto& host : hosts_) host->adapter->NoteBacklog(tasks);
}

std::vector<const gs_operation*> Engine::ChooseImplementationsLocked(
    const std::vector<HostState>& states,
    const std::vector<Placement>& placed) const {
  std::vector<const gs_operation*> chosen;
  bool any = false;
  for (const Placement& p : placed) {
    any |= ops_[graph_.task(p.task).op].desc->num_alternatives > 0;
  }
  if (!any) return chosen;  // the common case: one pass, no allocation
  chosen.assign(placed.size(), nullptr);
  std::vector<std::vector<Need>> placed_needs(states.size());
  for (const Placement& p : placed) {
    placed_needs[p.host].push_back(scheduler_.NeedOf(graph_.task(p.task).op));
  }
  std::vector<std::optional<SpareRoom>> spare(states.size());
  for (size_t i = 0; i < placed.size(); ++i) {
    const Placement& p = placed[i];
    const OpId op = graph_.task(p.task).op;
    const gs_operation& desc = *ops_[op].desc;
    if (desc.num_alternatives == 0) continue;
    if (!spare[p.host]) {
      spare[p.host] = SpareAfterRound(states[p.host], placed_needs[p.host]);
    }
    std::vector<Need> needs;
    for (int k = 0; k < desc.num_alternatives; ++k) {
      needs.push_back(NeedOfOperation(*desc.alternatives[k]));
    }
    int k = ChooseImplementation(scheduler_.NeedOf(op), needs, &*spare[p.host]);
    if (k >= 0) chosen[i] = desc.alternatives[k];
  }
  return chosen;
}

Engine::Dispatch Engine::DispatchLocked(TaskId t, HostId h,
                                        Seconds predicted_end, bool replica,
                                        const gs_operation* implementation) {
  Task& task = graph_.task(t);
  task.state = TaskState::kRunning;
  // Replicas are not retries: they do not spend the task's budget.
  if (!replica) ++task.attempts;
  if (!replica) rewinder_.SetHostOf(t, h);
  HostEntry& host = *hosts_[h];
  JobSpec spec = BuildJobSpec(
      graph_, t, ops_[task.op],
      [this, h](VersionId v) { return data_.PathOn(v, h); }, host.worker);
  spec.id = job_numbers_.Next();
  const Need need = implementation != nullptr ? NeedOfOperation(*implementation)
                                              : scheduler_.NeedOf(task.op);
  SetWhatRuns(implementation != nullptr ? *implementation : *ops_[task.op].desc,
              need, options_.timeouts, &spec);
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
  if (recorder_.watched())
    recorder_.ReportJobStart(mu_, spec.id, t, h, replica);
  jobs_.Add(spec.id, std::move(entry));
  ++host.running;
  host.running_cores += need.cores;
  if (!replica) ++stats_.running;
  ++stats_.jobs;
  if (replica) ++stats_.replicas;
  ++stats_.jobs_per_host[host.name];
  std::vector<VersionId> inputs;
  const FileAccess* acc = graph_.accesses(t);
  for (uint32_t i = 0; i < task.num_files; ++i) {
    if (acc[i].in != kNoVersion && !data_.HasCopy(acc[i].in, h)) {
      inputs.push_back(acc[i].in);
    }
  }
  if (!inputs.empty()) {
    ++host.staging;
    host.staging_cores += need.cores;
  }
  std::optional<QueuedJob> adopt;
  if (!replica && journal_) adopt = journal_->TakeOver(t, host.name);
  return Dispatch{h, std::move(spec), std::move(inputs), std::move(adopt)};
}

void Engine::Send(std::vector<Dispatch> dispatches) {
  for (Dispatch& d : dispatches) {
    if (!d.inputs.empty()) {
      StageAndSubmit(std::move(d));
      continue;
    }
    SubmitToHost(std::move(d));
  }
}

void Engine::SubmitToHost(Dispatch d) {
  auto done = [this, host = d.host](JobReport report) {
    OnJobDone(host, report);
  };
  Adapter& adapter = *hosts_[d.host]->adapter;
  if (d.adopt) {
    adapter.Adopt(std::move(*d.adopt), std::move(d.spec), std::move(done));
  } else {
    adapter.Submit(std::move(d.spec), std::move(done));
  }
  // Batch adapters queue jobs in a handler they posted just now: the ids
  // are committed right after it, so a master killed a moment later has
  // recorded every job it queued (engine_adopt.cc).
  if (!journal_ || !journal_->PostQueuedCommit()) return;
  boost::asio::post(*io_, [this] {
    journal_->QueuedCommitRan();
    RecordQueuedJobs(/*commit=*/true);
  });
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
    graph_.AddWaiting(acc[i].in, t);
  }
  task.state =
      task.missing_inputs == 0 ? TaskState::kReady : TaskState::kWaiting;
  if (task.state == TaskState::kReady) scheduler_.AddReady(t, task.op);
}

}  // namespace gs
