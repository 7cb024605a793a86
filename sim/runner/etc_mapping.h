// Maps a bag of independent tasks described by an ETC matrix onto machines
// with one slot each, with the same Policy objects a real run uses. Pure (no
// I/O): the experiments of papers 003 and Braun et al. run on it, and its
// results are checked against published makespans.
//
// Immediate mode: tasks arrive in file order; each is given to
// Policy::Choose() with a SlotBoard whose earliest time per machine is that
// machine's ready time (the sum of what it already has), and appended to the
// chosen machine. Batch mode (Min-Min): MinMinMap over the whole bag.
//
// The adapter between ETC rows and the Predictor seam: every ETC task is
// its own operation (ReadyTask{id = row, op = row}), because in the ETC model
// each task has its own row of times; EtcPredictor::ExecTime(op, m) reads
// row `op`. Transfers are free (the ETC model has no data).
#ifndef GSRT_SIM_RUNNER_ETC_MAPPING_H_
#define GSRT_SIM_RUNNER_ETC_MAPPING_H_

#include <string_view>
#include <vector>

#include "runtime/sched/policies_batch_plan.h"
#include "runtime/sched/policies_ft.h"
#include "runtime/sched/scheduler.h"
#include "sim/instances/etc_matrix.h"

namespace gs {

class EtcPredictor : public Predictor {
 public:
  explicit EtcPredictor(const EtcMatrix& etc) : etc_(etc) {}
  Seconds ExecTime(OpId op, HostId host) const override {
    return etc_.time(op, host);
  }
  Seconds TransferTime(TaskId, HostId) const override { return 0; }

 private:
  const EtcMatrix& etc_;
};

// A fail-stop machine failure placed in the arrival sequence (0-based):
// `machine` is down for task `first_task` and every later task.
//
// What happens to the tasks already mapped to it (the reading taken here,
// the one that reproduces paper 003's tables exactly): they ran, and their
// time counts in the machine's busy time and the makespan; a failure in the
// paper is "after the execution of" a task. Tasks mapped to the machine once
// it is down are lost: they do not run and do not count. Plain MET/MCT do
// not notice the failure (their ready times still grow with lost tasks);
// FTMET/FTMCT skip the machine. Paper 003's other remedy, rolling the failed
// machine's queue back to a checkpoint and mapping it again, is not modelled:
// its numbers show no such re-mapping.
struct MachineFailure {
  HostId machine;
  size_t first_task;
};

// HostHealth from a failure list, advanced task by task by the driver.
class FailureListHealth : public HostHealth {
 public:
  FailureListHealth(size_t machines, std::vector<MachineFailure> failures);
  // Marks down the machines whose failure comes at or before `task`.
  void AdvanceTo(size_t task);
  bool Alive(HostId host) const override { return alive_[host]; }

 private:
  std::vector<MachineFailure> failures_;  // sorted by first_task
  size_t next_ = 0;
  std::vector<bool> alive_;
};

struct EtcRun {
  std::vector<HostId> machine_of;  // per task: where it was mapped
  std::vector<bool> lost;          // per task: mapped to a failed machine
  size_t num_lost = 0;
  std::vector<Seconds> ready;  // per machine: all mapped there, lost included
  std::vector<Seconds> busy;   // per machine: time of the tasks that ran
  Seconds makespan = 0;        // max busy
  // Mean busy / makespan over the machines that ran at least one task: the
  // definition that reproduces paper 003's table 3 (MET on a consistent
  // instance uses one machine and scores 1).
  double utilisation_used = 0;
  // Mean busy / makespan over all machines.
  double utilisation_all = 0;
};

// Immediate-mode mapping of all tasks in order with `policy` (its host
// health, if it consults one, is the failure list during the call).
// Errors: a failure naming a machine out of range; a task no machine
// takes (every machine failed).
StatusOr<EtcRun> MapImmediate(const EtcMatrix& etc, Policy& policy,
                              const std::vector<MachineFailure>& failures);

// Batch-mode Min-Min on the whole bag, no failures.
EtcRun MapMinMin(const EtcMatrix& etc);

// Batch mapping of the whole bag with Min-Min or Sufferage, followed by
// the bounded local search if `local_search`; no failures.
EtcRun MapBatch(const EtcMatrix& etc, BatchHeuristic heuristic,
                bool local_search);

// The policy by its configuration name (MakePolicy): "min-min",
// "sufferage", "min-min-ls" and "sufferage-ls" map the whole bag (no
// failures allowed), the others MapImmediate.
StatusOr<EtcRun> MapWithPolicy(const EtcMatrix& etc, std::string_view name,
                               const std::vector<MachineFailure>& failures);

}  // namespace gs

#endif  // GSRT_SIM_RUNNER_ETC_MAPPING_H_
