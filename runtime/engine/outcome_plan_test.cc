// PlanOutcome for each outcome class against each state of the task's
// budget: fresh (the first attempt failed), partly spent (the last attempt
// the budget allows failed) and exhausted (one more than it allows). Plain
// values in, a decision out: no thread, no disk, no adapter.
#include "runtime/engine/outcome_plan.h"

#include <gtest/gtest.h>

namespace gs {
namespace {

// Each class allows a different number of attempts, so a mixed-up budget
// shows.
RetryBudgets Budgets() {
  RetryBudgets b;
  b.app = 2;
  b.infra = 3;
  b.timeout = 4;
  b.backoff = 1;
  b.backoff_max = 4;
  b.unless_exit = {42};
  return b;
}

OutcomeFacts Facts(uint32_t attempts) {
  OutcomeFacts f;
  f.host = "h1";
  f.job_attempt = attempts;
  f.task_attempts = attempts;
  return f;
}

Exited Success() { return Exited{}; }
Exited ExitCode(int code) {
  Exited e;
  e.code = code;
  e.log_dir = "/logs/7";
  return e;
}

enum class State { kFresh, kPartlySpent, kExhausted };
constexpr State kStates[] = {State::kFresh, State::kPartlySpent,
                             State::kExhausted};
const char* Name(State s) {
  return s == State::kFresh         ? "fresh"
         : s == State::kPartlySpent ? "partly spent"
                                    : "exhausted";
}
// The task's attempts (the failed one included) in state `s` of a budget
// allowing `allowed` attempts.
uint32_t Attempts(State s, int allowed) {
  return s == State::kFresh         ? 1
         : s == State::kPartlySpent ? static_cast<uint32_t>(allowed)
                                    : static_cast<uint32_t>(allowed) + 1;
}

// A failure of a class with `allowed` attempts is retried while they last,
// with the backoff of its attempt count, and then fails with `error`.
void ExpectChargedTo(const JobOutcome& outcome, Budget budget, int allowed,
                     const std::string& error, const std::string& log_dir) {
  for (State s : kStates) {
    SCOPED_TRACE(Name(s));
    uint32_t attempts = Attempts(s, allowed);
    OutcomePlan plan = PlanOutcome(outcome, Facts(attempts), Budgets());
    EXPECT_EQ(plan.attempts, attempts) << "only staging gives attempts back";
    EXPECT_FALSE(plan.staging_failure);
    if (s == State::kExhausted) {
      const auto* fails = std::get_if<TaskFails>(&plan.decision);
      ASSERT_NE(fails, nullptr);
      EXPECT_EQ(fails->budget, budget);
      EXPECT_EQ(fails->error, error);
      EXPECT_EQ(fails->log_dir, log_dir);
    } else {
      const auto* retry = std::get_if<TaskRetry>(&plan.decision);
      ASSERT_NE(retry, nullptr);
      EXPECT_EQ(retry->budget, budget);
      EXPECT_EQ(retry->delay, RetryDelay(Budgets(), attempts));
    }
  }
}

TEST(OutcomePlanTest, SuccessIsDoneWhateverTheBudget) {
  for (State s : kStates) {
    SCOPED_TRACE(Name(s));
    OutcomePlan plan =
        PlanOutcome(Success(), Facts(Attempts(s, Budgets().app)), Budgets());
    EXPECT_TRUE(std::holds_alternative<TaskDone>(plan.decision));
    EXPECT_TRUE(plan.finished_job);
    EXPECT_TRUE(plan.successful_job);
    EXPECT_FALSE(plan.host_lost);
  }
}

TEST(OutcomePlanTest, ApplicationFailureSpendsTheAppBudget) {
  ExpectChargedTo(ExitCode(3), Budget::kApp, Budgets().app, "exit code 3",
                  "/logs/7");
  OutcomePlan plan = PlanOutcome(ExitCode(3), Facts(1), Budgets());
  EXPECT_TRUE(plan.finished_job);
  EXPECT_FALSE(plan.successful_job);
  EXPECT_FALSE(plan.host_lost);
}

TEST(OutcomePlanTest, AGangWhoseOtherNodeWasLostFailedForTheInfrastructure) {
  // Its runner saw the ranks there die: not the application's failure,
  // and not the leader host's either.
  for (State s : kStates) {
    SCOPED_TRACE(Name(s));
    OutcomeFacts facts = Facts(Attempts(s, Budgets().infra));
    facts.gang_host_lost = "alloc-n2";
    OutcomePlan plan = PlanOutcome(ExitCode(3), facts, Budgets());
    EXPECT_FALSE(plan.host_lost);
    if (s == State::kExhausted) {
      const auto* fails = std::get_if<TaskFails>(&plan.decision);
      ASSERT_NE(fails, nullptr);
      EXPECT_EQ(fails->budget, Budget::kInfra);
      EXPECT_EQ(fails->error,
                "host alloc-n2 of its MPI gang was lost while it ran (exit "
                "code 3)");
    } else {
      const auto* retry = std::get_if<TaskRetry>(&plan.decision);
      ASSERT_NE(retry, nullptr);
      EXPECT_EQ(retry->budget, Budget::kInfra);
    }
  }
  // Success is success.
  OutcomeFacts facts = Facts(1);
  facts.gang_host_lost = "alloc-n2";
  EXPECT_TRUE(std::holds_alternative<TaskDone>(
      PlanOutcome(Success(), facts, Budgets()).decision));
}

TEST(OutcomePlanTest, AnMpiJobWhoseRunnerLostANodeFailedForTheInfrastructure) {
  Exited e = ExitCode(205);
  e.error = "parts threw: MPI job lost a node: MPI job mpirun -n 4 ...";
  ExpectChargedTo(e, Budget::kInfra, Budgets().infra, e.error, "/logs/7");
}

TEST(OutcomePlanTest, FailedTaskKeepsWhereItsLogsCameFrom) {
  Exited e = ExitCode(1);
  e.log_note = "fetched from host 'h1': /w/failed/s/j";
  OutcomePlan plan = PlanOutcome(e, Facts(Budgets().app + 1), Budgets());
  const auto* fails = std::get_if<TaskFails>(&plan.decision);
  ASSERT_NE(fails, nullptr);
  EXPECT_EQ(fails->log_note, "fetched from host 'h1': /w/failed/s/j");
  TimedOut t{5, "/m/failed/h1/s/j", "still on host 'h1': not fetched (x)"};
  plan = PlanOutcome(t, Facts(Budgets().timeout + 1), Budgets());
  fails = std::get_if<TaskFails>(&plan.decision);
  ASSERT_NE(fails, nullptr);
  EXPECT_EQ(fails->log_note, "still on host 'h1': not fetched (x)");
}

TEST(OutcomePlanTest, MissingOutputIsAnApplicationFailureWithItsMessage) {
  Exited missing;  // exit code 0, yet a declared output is not there
  missing.error = "declared output 'c' was not written";
  ExpectChargedTo(missing, Budget::kApp, Budgets().app,
                  "declared output 'c' was not written", "");
  EXPECT_FALSE(PlanOutcome(missing, Facts(1), Budgets()).successful_job);
}

TEST(OutcomePlanTest, UnlessExitCodeIsFinalWhateverTheBudget) {
  for (State s : kStates) {
    SCOPED_TRACE(Name(s));
    OutcomePlan plan =
        PlanOutcome(ExitCode(42), Facts(Attempts(s, Budgets().app)), Budgets());
    const auto* fails = std::get_if<TaskFails>(&plan.decision);
    ASSERT_NE(fails, nullptr);
    EXPECT_EQ(fails->budget, Budget::kApp);
    EXPECT_EQ(fails->error, "exit code 42");
  }
  // Other codes keep their budget.
  EXPECT_TRUE(std::holds_alternative<TaskRetry>(
      PlanOutcome(ExitCode(41), Facts(1), Budgets()).decision));
}

TEST(OutcomePlanTest, HostFailureAtFaultLosesTheHostAndSpendsInfra) {
  HostFailed failed{"connection reset"};
  ExpectChargedTo(failed, Budget::kInfra, Budgets().infra,
                  "host h1 failed: connection reset", "");
  OutcomePlan plan = PlanOutcome(failed, Facts(1), Budgets());
  EXPECT_TRUE(plan.host_lost);
  EXPECT_EQ(plan.host_lost_reason, "connection reset");
  EXPECT_TRUE(plan.finished_job);
  // A host already taken out is not lost twice.
  OutcomeFacts gone = Facts(1);
  gone.host_usable = false;
  EXPECT_FALSE(PlanOutcome(failed, gone, Budgets()).host_lost);
}

TEST(OutcomePlanTest, StagingFailureGivesTheAttemptBackAFewTimes) {
  HostFailed staging{"staging inputs to host 'h1' failed: gone"};
  const int allowed = Budgets().infra;
  for (State s : kStates) {
    SCOPED_TRACE(Name(s));
    OutcomeFacts f = Facts(Attempts(s, allowed));
    f.host_at_fault = false;
    OutcomePlan plan = PlanOutcome(staging, f, Budgets());
    EXPECT_FALSE(plan.host_lost) << "the job never reached the host";
    EXPECT_TRUE(plan.staging_failure);
    EXPECT_EQ(plan.attempts, f.task_attempts - 1);
    // Given back, even the exhausted budget allows one more.
    const auto* retry = std::get_if<TaskRetry>(&plan.decision);
    ASSERT_NE(retry, nullptr);
    EXPECT_EQ(retry->budget, Budget::kInfra);
    EXPECT_EQ(retry->delay, RetryDelay(Budgets(), plan.attempts));
  }
  // Forgiven often enough: now charged like any infrastructure failure.
  OutcomeFacts f = Facts(Attempts(State::kExhausted, allowed));
  f.host_at_fault = false;
  f.staging_failures = kStagingFailuresForgiven;
  OutcomePlan plan = PlanOutcome(staging, f, Budgets());
  EXPECT_EQ(plan.attempts, f.task_attempts);
  EXPECT_TRUE(plan.staging_failure);
  const auto* fails = std::get_if<TaskFails>(&plan.decision);
  ASSERT_NE(fails, nullptr);
  EXPECT_EQ(fails->error, "host h1 failed: " + staging.reason);
}

TEST(OutcomePlanTest, TimeoutSpendsTheTimeoutBudget) {
  ExpectChargedTo(TimedOut{2.5, ""}, Budget::kTimeout, Budgets().timeout,
                  "timed out after 2.50 s", "");
  EXPECT_FALSE(PlanOutcome(TimedOut{2.5, ""}, Facts(1), Budgets()).host_lost);
}

TEST(OutcomePlanTest, CancelledIsPlacedAnewWithinTheInfraBudget) {
  ExpectChargedTo(Cancelled{}, Budget::kInfra, Budgets().infra, "cancelled",
                  "");
  OutcomePlan plan = PlanOutcome(Cancelled{}, Facts(1), Budgets());
  EXPECT_FALSE(plan.finished_job) << "a cancellation says nothing of SR";
  EXPECT_FALSE(plan.successful_job);
}

TEST(OutcomePlanTest, CancelledWhileStoppingIsCancelledNotFailed) {
  // Ctrl-C stops the running jobs: their tasks did not fail (issue 36).
  for (State s : kStates) {
    SCOPED_TRACE(Name(s));
    OutcomeFacts f = Facts(Attempts(s, Budgets().infra));
    f.stopping = true;
    OutcomePlan plan = PlanOutcome(Cancelled{}, f, Budgets());
    EXPECT_TRUE(std::holds_alternative<TaskCancelled>(plan.decision));
    EXPECT_FALSE(plan.finished_job);
    EXPECT_FALSE(plan.successful_job);
  }
}

TEST(OutcomePlanTest, RetryWhileStoppingIsImmediate) {
  OutcomeFacts f = Facts(Attempts(State::kPartlySpent, Budgets().app));
  f.stopping = true;
  OutcomePlan plan = PlanOutcome(ExitCode(3), f, Budgets());
  const auto* retry = std::get_if<TaskRetry>(&plan.decision);
  ASSERT_NE(retry, nullptr);
  EXPECT_EQ(retry->delay, 0);
}

TEST(OutcomePlanTest, ReplicaThatWinsFinishesTheTask) {
  for (State s : kStates) {
    SCOPED_TRACE(Name(s));
    OutcomeFacts f = Facts(Attempts(s, Budgets().app));
    f.replica = true;
    f.other_instances = true;  // the original, to be cancelled
    OutcomePlan plan = PlanOutcome(Success(), f, Budgets());
    EXPECT_TRUE(std::holds_alternative<TaskDone>(plan.decision));
    EXPECT_TRUE(plan.successful_job);
  }
}

TEST(OutcomePlanTest, InstanceThatLostIsSuperseded) {
  // Another instance already finished the task: whatever this one did
  // decides nothing and spends nothing.
  for (const JobOutcome& outcome :
       {JobOutcome(Success()), JobOutcome(ExitCode(3)),
        JobOutcome(HostFailed{"x"}), JobOutcome(TimedOut{1, ""}),
        JobOutcome(Cancelled{})}) {
    for (State s : kStates) {
      SCOPED_TRACE(Name(s));
      OutcomeFacts f = Facts(Attempts(s, Budgets().app));
      f.replica = true;
      f.task_running = false;
      OutcomePlan plan = PlanOutcome(outcome, f, Budgets());
      EXPECT_TRUE(std::holds_alternative<InstanceSuperseded>(plan.decision))
          << outcome.index();
      EXPECT_EQ(plan.attempts, f.task_attempts);
      EXPECT_FALSE(plan.staging_failure);
    }
  }
  // A winning replica's job still counts as successful for SR.
  OutcomeFacts f = Facts(1);
  f.task_running = false;
  EXPECT_TRUE(PlanOutcome(Success(), f, Budgets()).successful_job);
}

TEST(OutcomePlanTest, InstanceOfAnEarlierAttemptIsSuperseded) {
  // Cancelled by a proactive policy, the task was placed anew (attempt 2)
  // before this job's report came.
  OutcomeFacts f = Facts(2);
  f.job_attempt = 1;
  OutcomePlan plan = PlanOutcome(Cancelled{}, f, Budgets());
  EXPECT_TRUE(std::holds_alternative<InstanceSuperseded>(plan.decision));
  // The host is still lost when the stale job says so.
  plan = PlanOutcome(HostFailed{"gone"}, f, Budgets());
  EXPECT_TRUE(std::holds_alternative<InstanceSuperseded>(plan.decision));
  EXPECT_TRUE(plan.host_lost);
}

TEST(OutcomePlanTest, FailedInstanceWaitsForTheOthers) {
  for (State s : kStates) {
    SCOPED_TRACE(Name(s));
    OutcomeFacts f = Facts(Attempts(s, Budgets().app));
    f.other_instances = true;
    f.host_at_fault = false;
    OutcomePlan plan = PlanOutcome(ExitCode(3), f, Budgets());
    const auto* failed = std::get_if<InstanceFailed>(&plan.decision);
    ASSERT_NE(failed, nullptr);
    EXPECT_EQ(failed->error, "exit code 3");
    EXPECT_EQ(plan.attempts, f.task_attempts) << "not charged, not given back";
    EXPECT_FALSE(plan.staging_failure);
  }
}

TEST(OutcomePlanTest, RetryDelayDoublesUpToTheMaximum) {
  RetryBudgets b = Budgets();  // 1 s, at most 4 s
  EXPECT_EQ(RetryDelay(b, 0), 1);
  EXPECT_EQ(RetryDelay(b, 1), 1);
  EXPECT_EQ(RetryDelay(b, 2), 2);
  EXPECT_EQ(RetryDelay(b, 3), 4);
  EXPECT_EQ(RetryDelay(b, 4), 4);
  EXPECT_EQ(RetryDelay(b, 1000), 4);
  b.backoff = 0;
  EXPECT_EQ(RetryDelay(b, 5), 0) << "no backoff: at once";
  b.backoff = 3;
  b.backoff_max = 10;
  EXPECT_EQ(RetryDelay(b, 3), 10) << "12 capped";
}

}  // namespace
}  // namespace gs
