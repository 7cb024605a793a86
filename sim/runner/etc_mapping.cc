#include "sim/runner/etc_mapping.h"

#include <algorithm>
#include <cassert>
#include <string>

#include "runtime/sched/policies_minmin.h"

namespace gs {
namespace {

std::vector<HostState> OneSlotMachines(size_t machines) {
  return std::vector<HostState>(machines, HostState{1, true, {}});
}

EtcRun EmptyRun(const EtcMatrix& etc) {
  EtcRun run;
  run.machine_of.assign(etc.tasks, kNoHost);
  run.lost.assign(etc.tasks, false);
  run.ready.assign(etc.machines, 0);
  run.busy.assign(etc.machines, 0);
  return run;
}

void Summarise(EtcRun* run) {
  if (run->busy.empty()) return;
  run->makespan = *std::max_element(run->busy.begin(), run->busy.end());
  if (run->makespan <= 0) return;
  double sum = 0;
  size_t used = 0;
  for (Seconds b : run->busy) {
    sum += b;
    if (b > 0) ++used;
  }
  run->utilisation_used = sum / (static_cast<double>(used) * run->makespan);
  run->utilisation_all =
      sum / (static_cast<double>(run->busy.size()) * run->makespan);
}

// Gives the policy the failure list's health for the duration of a run
// only: the view lives on the driver's stack.
class HealthScope {
 public:
  HealthScope(Policy& policy, const HostHealth* health) : policy_(policy) {
    AttachHostHealth(policy_, health);
  }
  ~HealthScope() { AttachHostHealth(policy_, nullptr); }

 private:
  Policy& policy_;
};

}  // namespace

FailureListHealth::FailureListHealth(size_t machines,
                                     std::vector<MachineFailure> failures)
    : failures_(std::move(failures)), alive_(machines, true) {
  std::stable_sort(failures_.begin(), failures_.end(),
                   [](const MachineFailure& a, const MachineFailure& b) {
                     return a.first_task < b.first_task;
                   });
}

void FailureListHealth::AdvanceTo(size_t task) {
  for (; next_ < failures_.size() && failures_[next_].first_task <= task;
       ++next_) {
    assert(failures_[next_].machine < alive_.size());
    alive_[failures_[next_].machine] = false;
  }
}

StatusOr<EtcRun> MapImmediate(const EtcMatrix& etc, Policy& policy,
                              const std::vector<MachineFailure>& failures) {
  for (const MachineFailure& f : failures) {
    if (f.machine >= etc.machines) {
      return Status::InvalidArgument(
          "failure of machine " + std::to_string(f.machine) +
          " (0-based), but the instance has " + std::to_string(etc.machines) +
          " machines");
    }
  }
  EtcPredictor predictor(etc);
  std::vector<HostState> hosts = OneSlotMachines(etc.machines);
  SlotBoard board(SchedulingInput{0, &hosts, &predictor});
  FailureListHealth health(etc.machines, failures);
  HealthScope scope(policy, &health);
  EtcRun run = EmptyRun(etc);
  for (size_t t = 0; t < etc.tasks; ++t) {
    health.AdvanceTo(t);
    ReadyTask task{static_cast<TaskId>(t), static_cast<OpId>(t)};
    Policy::Choice c = policy.Choose(task, board, predictor);
    if (c.host == kNoHost) {
      return Status::FailedPrecondition(
          "policy '" + std::string(policy.name()) + "' maps task " +
          std::to_string(t) + " nowhere: every machine it may use has failed");
    }
    // The board (the broker's view) counts the task even when the machine
    // is down: a policy that does not check liveness believes it runs.
    board.Take(c.host, c.end);
    Seconds time = etc.time(t, c.host);
    run.machine_of[t] = c.host;
    run.ready[c.host] += time;
    if (health.Alive(c.host)) {
      run.busy[c.host] += time;
    } else {
      run.lost[t] = true;
      ++run.num_lost;
    }
  }
  Summarise(&run);
  return run;
}

EtcRun MapMinMin(const EtcMatrix& etc) {
  EtcPredictor predictor(etc);
  std::vector<HostState> hosts = OneSlotMachines(etc.machines);
  SlotBoard board(SchedulingInput{0, &hosts, &predictor});
  std::vector<ReadyTask> tasks(etc.tasks);
  for (size_t t = 0; t < etc.tasks; ++t) {
    tasks[t] = {static_cast<TaskId>(t), static_cast<OpId>(t)};
  }
  EtcRun run = EmptyRun(etc);
  for (const MinMinStep& s :
       MinMinMap(tasks, board, predictor, /*only_while_free=*/false)) {
    run.machine_of[s.task_index] = s.host;
    run.ready[s.host] = s.end;
  }
  run.busy = run.ready;
  Summarise(&run);
  return run;
}

EtcRun MapBatch(const EtcMatrix& etc, BatchHeuristic heuristic,
                bool local_search) {
  EtcPredictor predictor(etc);
  std::vector<HostState> hosts = OneSlotMachines(etc.machines);
  std::vector<ReadyTask> tasks(etc.tasks);
  for (size_t t = 0; t < etc.tasks; ++t) {
    tasks[t] = {static_cast<TaskId>(t), static_cast<OpId>(t)};
  }
  BatchPlan plan = PlanBatch(tasks, SchedulingInput{0, &hosts, &predictor},
                             heuristic, local_search);
  EtcRun run = EmptyRun(etc);
  for (size_t t = 0; t < etc.tasks; ++t) {
    run.machine_of[t] = plan.host_of[t];
    run.ready[plan.host_of[t]] += etc.time(t, plan.host_of[t]);
  }
  run.busy = run.ready;
  Summarise(&run);
  return run;
}

StatusOr<EtcRun> MapWithPolicy(const EtcMatrix& etc, std::string_view name,
                               const std::vector<MachineFailure>& failures) {
  const bool batch = name == "min-min" || name == "sufferage" ||
                     name == "min-min-ls" || name == "sufferage-ls";
  if (batch && !failures.empty()) {
    return Status::InvalidArgument(
        std::string(name) +
        " maps the whole bag before anything runs; a failure list is only "
        "meaningful for the immediate-mode policies");
  }
  if (name == "min-min") return MapMinMin(etc);
  if (batch) {
    return MapBatch(etc,
                    name.starts_with("sufferage") ? BatchHeuristic::kSufferage
                                                  : BatchHeuristic::kMinMin,
                    name.ends_with("-ls"));
  }
  auto policy = MakePolicy(name);
  if (!policy.ok()) return policy.status();
  return MapImmediate(etc, **policy, failures);
}

}  // namespace gs
