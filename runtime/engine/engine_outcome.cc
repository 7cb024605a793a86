// A job's end: the engine gathers the facts under its lock, PlanOutcome
// (runtime/engine/outcome_plan.h, pure) decides, and this applies the
// decision: the task's outputs become its versions, or it runs again after
// its backoff, or it fails and its descendants become futile, or the run's
// end cancelled it. Removing files, cancelling the other instances and
// sending new jobs wait until the lock is released.
#include <algorithm>
#include <variant>

#include "runtime/engine/call_text.h"
#include "runtime/engine/engine.h"
#include "runtime/engine/engine_hosts.h"
#include "runtime/engine/result_cache.h"
#include "runtime/engine/resume_journal.h"
#include "runtime/engine/user_file_names.h"

namespace gs {

namespace {

// A gang job's other host that is lost, or silent past its heartbeat: its
// ranks may have died with it, and the runner then ends with whatever
// status it chose. "" when none is (or the job is no gang).
std::string LostGangHost(const HostSet& hosts, const JobEntry& job) {
  for (HostId other : job.gang_hosts) {
    if (!hosts[other]->usable || hosts.HealthOf(other) != HealthState::kUp)
      return hosts[other]->name;
  }
  return "";
}

}  // namespace

void Engine::OnJobDone(HostId host_id, JobReport report, bool host_at_fault) {
  Aftermath after;
  {
    MutexLock lock(&mu_);
    JobEntry job;
    std::vector<JobId> others;
    if (!jobs_.Take(report.id, &job, &others)) return;
    HostEntry& host = *hosts_[host_id];
    --host.running;
    const Task& task = program_.graph.task(job.task);
    host.running_cores -= job.need.cores;  // an alternative's, if it ran one
    host.gpus.Release(report.id);
    naming_.NameUserFiles(job.task, host_id, job.replica_outputs, &report);
    // Its slots go to the jobs queued there, from its end.
    const Seconds end = report.ended > 0 ? report.ended : loop_.clock().Now();
    const int slots = HostSet::Slots(host);
    SlotOccupancy::Ended slot = host.occupancy.End(report.id, slots, end);
    stats_.queued_on_hosts -= slot.was_queued + slot.now_running.size();
    recorder_.RecordJob(mu_, job.task, host_id, report, job.replica,
                        job.submitted, slot.got_slots);
    if (recorder_.watched()) {
      for (JobId id : slot.now_running) {
        if (const JobEntry* next = jobs_.Find(id)) {
          recorder_.ReportJobRunning(mu_, id, next->task, host_id, end, slots);
        }
      }
    }
    if (host.prefetch_window > 0 &&
        std::holds_alternative<Exited>(report.outcome)) {
      // How deep the host's prefetch may go (runtime/sched/prefetch.h).
      const Seconds ran =
          std::max<Seconds>(1e-6, report.ended - report.started);
      host.mean_job = host.mean_job > 0 ? 0.8 * host.mean_job + 0.2 * ran : ran;
    }
    OutcomeFacts facts;
    facts.host = host.name;
    facts.host_usable = host.usable;
    facts.host_at_fault = host_at_fault;
    facts.replica = job.replica;
    facts.job_attempt = job.attempt;
    facts.task_running = task.state == TaskState::kRunning;
    facts.task_attempts = task.attempts;
    facts.staging_failures = dispatcher_.staging_failures(job.task);
    facts.other_instances = !others.empty();
    facts.stopping = loop_.stopping(mu_);
    facts.gang_host_lost = LostGangHost(hosts_, job);
    OutcomePlan plan = PlanOutcome(report.outcome, facts, options_.retries);
    ApplyOutcomeLocked(plan, job, host_id, report, others, &after);
    mover_.CollectGarbage(mu_, &after.doomed);
    if (!loop_.stopping(mu_)) ScheduleLocked(&after.dispatches);
    waits_.NotifyIfWaiting();
    after.record = recorder_.PendingRows(mu_) >= RunRecorder::kWriteRows;
  }
  mover_.RemoveFiles(after.doomed);
  for (auto [h, id] : after.cancels) hosts_[h]->adapter->Cancel(id);
  Send(std::move(after.dispatches));
  // Otherwise the flush timer writes them, within kFlushPeriod: a write per
  // job end cost more than the rest of the job's handling.
  if (after.record) RecordPending();
}

void Engine::ApplyOutcomeLocked(const OutcomePlan& plan, const JobEntry& job,
                                HostId host_id, JobReport& report,
                                const std::vector<JobId>& others,
                                Aftermath* after) {
  HostEntry& host = *hosts_[host_id];
  if (plan.finished_job) ++host.jobs_finished;
  if (plan.successful_job) {
    ++host.jobs_ok;
    jobs_.CountOk();
  }
  if (plan.host_lost) HostLostLocked(host_id, plan.host_lost_reason);
  if (std::holds_alternative<TaskDone>(plan.decision)) {
    return TaskSucceededLocked(job, host_id, report, others, after);
  }
  // A replica that did not win leaves nothing behind.
  for (auto& [dest, final_path] : job.replica_outputs) {
    after->doomed.push_back(dest);
  }
  if (std::holds_alternative<TaskRetry>(plan.decision) ||
      std::holds_alternative<TaskFails>(plan.decision)) {
    TaskFailedLocked(plan, job.task);
  }
  if (std::holds_alternative<TaskCancelled>(plan.decision)) {
    // The run is ending (a signal): the task neither failed nor runs again;
    // what depends on it is left unrun, not futile.
    --stats_.running;
    ++stats_.cancelled;
    if (recorder_.watched())
      recorder_.ReportTaskEnd(mu_, job.task, "cancelled");
  }
}

void Engine::TaskSucceededLocked(const JobEntry& job, HostId host_id,
                                 JobReport& report,
                                 const std::vector<JobId>& others,
                                 Aftermath* after) {
  // A winning replica on a host sharing the master's files wrote beside the
  // version files (DispatchLocked).
  for (auto& [dest, final_path] : job.replica_outputs) {
    (void)work_dir_.fs().Rename(dest, final_path);
  }
  if (job.replica) ++stats_.replica_wins;
  rewinder_.SetHostOf(job.task, host_id);
  for (JobId other : others) {
    after->cancels.push_back({jobs_.at(other).host, other});
  }
  --stats_.running;
  const Task& task = program_.graph.task(job.task);
  dispatcher_.predictor().Observe(task.op, host_id,
                                  report.ended - report.started);
  Exited& exited = std::get<Exited>(report.outcome);
  if (program_.ops[task.op].synchronous)
    program_.results[job.task] = std::move(exited.results);
  PlaceOutputsLocked(job.task, host_id, exited.bytes_out);
  std::vector<TaskId> ready;
  FinishTaskLocked(job.task, &ready);
  for (TaskId t : ready) dispatcher_.AddReady(t);
}

void Engine::PlaceOutputsLocked(TaskId t, HostId host_id, uint64_t bytes_out) {
  const bool shared = hosts_[host_id]->shared;
  const Task& task = program_.graph.task(t);
  const FileAccess* acc = program_.graph.accesses(t);
  uint32_t outputs = 0;
  for (uint32_t i = 0; i < task.num_files; ++i) {
    outputs += acc[i].out != kNoVersion;
  }
  if (outputs > 0) dispatcher_.TransfersChanged();
  for (uint32_t i = 0; i < task.num_files; ++i) {
    if (acc[i].out == kNoVersion) continue;
    Version& out_version = program_.graph.version(acc[i].out);
    // Adapters report the total; an even split is enough to predict
    // transfer times.
    out_version.size = bytes_out / std::max(outputs, 1u);
    // The new data is where the job ran (a rewound task may have run
    // elsewhere before).
    out_version.on_master = shared;
    mover_.places().SetOnlyCopy(acc[i].out, shared ? kNoHost : host_id);
  }
}

void Engine::TaskFailedLocked(const OutcomePlan& plan, TaskId t) {
  --stats_.running;
  program_.graph.task(t).attempts = plan.attempts;
  if (plan.staging_failure) dispatcher_.CountStagingFailure(t);
  if (const auto* retry = std::get_if<TaskRetry>(&plan.decision)) {
    ++stats_.retries;
    if (recorder_.watched()) {
      RunEvent e{"retry", loop_.clock().Now()};
      e.task = t;
      e.detail = "attempt " + std::to_string(plan.attempts + 1) + " after " +
                 std::to_string(retry->delay) + " s";
      recorder_.ReportEvent(mu_, std::move(e));
    }
    dispatcher_.RetryLater(t, retry->delay);
  } else {
    const auto& fails = std::get<TaskFails>(plan.decision);
    FailTaskLocked(t, fails.error, fails.log_dir, fails.log_note);
  }
}

void Engine::FinishTaskLocked(TaskId t, std::vector<TaskId>* ready) {
  program_.graph.MarkDone(t, ready);
  ++stats_.done;
  if (recorder_.watched()) recorder_.ReportTaskEnd(mu_, t, "done");
  if (memory_.journal) memory_.journal->Finished(t);
  if (memory_.cache) memory_.cache->Finished(t);
}

void Engine::FailTaskLocked(TaskId t, const std::string& error,
                            const std::string& log_dir,
                            const std::string& log_note) {
  std::vector<TaskId> futile;
  program_.graph.MarkFailed(t, &futile);
  ++stats_.failed;
  stats_.futile += futile.size();
  if (recorder_.watched()) {
    recorder_.ReportTaskEnd(mu_, t, "failed");
    for (TaskId f : futile) recorder_.ReportTaskEnd(mu_, f, "futile");
  }
  const Task& task = program_.graph.task(t);
  stats_.failures.push_back({t, program_.ops[task.op].name, naming_.CallText(t),
                             error, log_dir, static_cast<int>(task.attempts),
                             log_note});
  if (!futile.empty()) {
    dispatcher_.scheduler().RemoveIf([this](TaskId id) {
      mu_.AssertHeld();  // called right here
      return program_.graph.task(id).state == TaskState::kFutile;
    });
  }
}

}  // namespace gs
