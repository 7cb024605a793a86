#include "runtime/engine/outcome_plan.h"

#include <algorithm>

#include "runtime/base/units.h"
#include "runtime/base/worker_failure.h"

namespace gs {

namespace {

// A failed job: what went wrong, and how many attempts its class allows.
struct Failure {
  Budget budget;
  int allowed;  // attempts the task may have made and still run again
  std::string error;
  std::string log_dir;
  std::string log_note;
};

Failure Classify(const JobOutcome& outcome, const OutcomeFacts& facts,
                 const RetryBudgets& budgets) {
  const auto* exited = std::get_if<Exited>(&outcome);
  if (exited != nullptr &&
      exited->error.find(kMpiNodeLost) != std::string::npos) {
    // The runner saw a node of the job die: not the application's fault.
    return {Budget::kInfra, budgets.infra, exited->error, exited->log_dir,
            exited->log_note};
  }
  if (exited != nullptr && !facts.gang_host_lost.empty()) {
    // Its ranks there died with the node: the infrastructure's failure.
    return {
        Budget::kInfra, budgets.infra,
        "host " + facts.gang_host_lost +
            " of its MPI gang was lost while it ran (" +
            (exited->error.empty() ? "exit code " + std::to_string(exited->code)
                                   : exited->error) +
            ")",
        exited->log_dir, exited->log_note};
  }
  if (exited != nullptr) {
    Failure f{Budget::kApp, budgets.app,
              exited->error.empty()
                  ? "exit code " + std::to_string(exited->code)
                  : exited->error,
              exited->log_dir, exited->log_note};
    // The application says its input is bad: running again cannot help.
    for (int code : budgets.unless_exit) {
      if (exited->code == code) f.allowed = 0;
    }
    return f;
  }
  if (const auto* failed = std::get_if<HostFailed>(&outcome)) {
    return {Budget::kInfra, budgets.infra,
            "host " + facts.host + " failed: " + failed->reason, "", ""};
  }
  if (const auto* timed = std::get_if<TimedOut>(&outcome)) {
    return {Budget::kTimeout, budgets.timeout,
            "timed out after " + FormatDuration(timed->limit), timed->log_dir,
            timed->log_note};
  }
  // Cancelled by a proactive policy: placed anew (the run's end cancels
  // the task instead, PlanOutcome).
  return {Budget::kInfra, budgets.infra, "cancelled", "", ""};
}

}  // namespace

Seconds RetryDelay(const RetryBudgets& budgets, uint32_t attempts) {
  Seconds delay = budgets.backoff;
  for (uint32_t i = 1; i < attempts && delay < budgets.backoff_max; ++i) {
    delay *= 2;
  }
  return std::max<Seconds>(std::min(delay, budgets.backoff_max), 0);
}

OutcomePlan PlanOutcome(const JobOutcome& outcome, const OutcomeFacts& facts,
                        const RetryBudgets& budgets) {
  OutcomePlan plan;
  plan.attempts = facts.task_attempts;
  const auto* exited = std::get_if<Exited>(&outcome);
  plan.finished_job = !std::holds_alternative<Cancelled>(outcome);
  plan.successful_job = exited != nullptr && exited->succeeded();
  // Infrastructure failures are the host's, not the task's: the task's own
  // budget is charged only for its own failures.
  if (const auto* failed = std::get_if<HostFailed>(&outcome);
      failed && facts.host_usable && facts.host_at_fault) {
    plan.host_lost = true;
    plan.host_lost_reason = failed->reason;
  }
  // Another instance already won, or the task was put back and runs again.
  if (!facts.task_running || facts.job_attempt != facts.task_attempts) {
    plan.decision = InstanceSuperseded{};
    return plan;
  }
  if (plan.successful_job) {
    plan.decision = TaskDone{};
    return plan;
  }
  // Stopped by the run's end (a signal): not the task's failure.
  if (std::holds_alternative<Cancelled>(outcome) && facts.stopping &&
      !facts.other_instances) {
    plan.decision = TaskCancelled{};
    return plan;
  }
  Failure failure = Classify(outcome, facts, budgets);
  // While another instance still runs, the task is not lost yet.
  if (facts.other_instances) {
    plan.decision = InstanceFailed{std::move(failure.error)};
    return plan;
  }
  // A job whose inputs could not be staged never ran: its attempt is given
  // back. Not indefinitely, though: a task whose inputs keep failing to
  // arrive is charged after a few tries, so its budget ends it.
  if (!facts.host_at_fault) {
    plan.staging_failure = true;
    if (facts.staging_failures < kStagingFailuresForgiven && plan.attempts > 0)
      --plan.attempts;
  }
  if (static_cast<int>(plan.attempts) <= failure.allowed) {
    Seconds delay = facts.stopping ? 0 : RetryDelay(budgets, plan.attempts);
    plan.decision = TaskRetry{failure.budget, delay};
  } else {
    plan.decision =
        TaskFails{failure.budget, std::move(failure.error),
                  std::move(failure.log_dir), std::move(failure.log_note)};
  }
  return plan;
}

}  // namespace gs
