// What a job's outcome means for its task and its host (ninja's Plan beside
// the Engine's Builder): the task is done; it runs again after a backoff,
// charged to the budget of the failure's class; it fails (and its
// descendants become futile); it is cancelled by the run's end; or the
// outcome decides nothing, because the
// instance was superseded or another instance of the task still runs.
// Alongside: whether the host is lost (then the engine rewinds what only it
// held, runtime/graph/rewind.h) and how the job counts for success rates.
//
// Pure: the engine gathers the facts under its lock, asks PlanOutcome and
// applies the answer (runtime/engine/engine_outcome.cc). No thread, no disk,
// no adapter.
#ifndef GSRT_RUNTIME_ENGINE_OUTCOME_PLAN_H_
#define GSRT_RUNTIME_ENGINE_OUTCOME_PLAN_H_

#include <cstdint>
#include <string>
#include <variant>

#include "runtime/config/config.h"
#include "runtime/jobs/job.h"

namespace gs {

// The job that ended and its task, as the engine saw them then.
struct OutcomeFacts {
  std::string host;               // the host's name, for messages
  bool host_usable = true;        // the engine still placed jobs there
  bool host_at_fault = true;      // false: the inputs never reached it
  bool replica = false;           // a copy of a task running elsewhere
  uint32_t job_attempt = 0;       // the task's attempts when it was sent
  bool task_running = true;       // no instance has decided the task yet
  uint32_t task_attempts = 0;     // the task's attempts now
  uint32_t staging_failures = 0;  // its earlier jobs that never ran
  bool other_instances = false;   // other instances of the task still run
  bool stopping = false;          // the run is ending (GS_Off, a signal)
  // An MPI gang's other host that was lost or is suspect ("": none, or no
  // gang): a failure is then the infrastructure's, not the application's.
  std::string gang_host_lost;
};

// The retry budget a failure is charged to (RetryBudgets).
enum class Budget : uint8_t {
  kApp,      // the application failed: exit code, missing output
  kInfra,    // the host or the connection failed; also a cancellation
  kTimeout,  // the job ran past its operation's timeout
};

// Success: the outputs are the task's versions, the other instances are
// cancelled.
struct TaskDone {};
// The task is put back after `delay` seconds (0: at once).
struct TaskRetry {
  Budget budget;
  Seconds delay = 0;
};
// The task is out of budget, or the failure is final: it fails and what
// depends on it becomes futile.
struct TaskFails {
  Budget budget;
  std::string error;
  std::string log_dir;   // the job's logs, when kept
  std::string log_note;  // where they came from (Exited::log_note)
};
// The run is ending (a signal) and stopped the task's job: the task is
// cancelled, neither failed nor run again, and what depends on it simply
// never runs.
struct TaskCancelled {};
// Another instance won, or the task was put back and runs again: this job's
// outcome decides nothing (a replica's outputs are discarded).
struct InstanceSuperseded {};
// This instance failed while another still runs: the task waits for that
// one and is not charged.
struct InstanceFailed {
  std::string error;
};
using TaskDecision = std::variant<TaskDone, TaskRetry, TaskFails, TaskCancelled,
                                  InstanceSuperseded, InstanceFailed>;

struct OutcomePlan {
  TaskDecision decision;
  // The host is taken out: its copies dropped, their producers rewound, a
  // reconnection tried after a backoff. Only a failure the host caused
  // counts (inputs that could not be staged are not the host's loss).
  bool host_lost = false;
  std::string host_lost_reason;
  // For the success rate SR (WQDR-FT): every end but a cancellation is a
  // finished job; a clean exit is a successful one, even a losing replica.
  bool finished_job = false;
  bool successful_job = false;
  // A job that never ran gives its attempt back (the first few times);
  // `attempts` is the task's count after that, `staging_failure` whether
  // this job adds to the task's count of jobs that never ran.
  uint32_t attempts = 0;
  bool staging_failure = false;
};

OutcomePlan PlanOutcome(const JobOutcome& outcome, const OutcomeFacts& facts,
                        const RetryBudgets& budgets);

// The delay before a task that has made `attempts` attempts runs again:
// `backoff`, doubled for each attempt after the first, at most
// `backoff_max`.
Seconds RetryDelay(const RetryBudgets& budgets, uint32_t attempts);

// Times a task whose inputs keep failing to arrive gets its attempt back.
inline constexpr uint32_t kStagingFailuresForgiven = 3;

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_OUTCOME_PLAN_H_
