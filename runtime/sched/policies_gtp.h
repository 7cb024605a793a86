// GTP (paper 000) as a policy: "gtp". At each rescheduling point the
// engine hands the policy the whole DAG as GTP sees it (runtime/sched/
// gtp_plan.h: tasks, edges, placements, progress, copies), the policy maps
// every unfinished task with PlanGtp, and until the next point each ready
// task goes to its planned processor, in planned start order, waiting for
// it when it is busy. Rescheduling points come at a fixed period, 10 % of
// the latest planned makespan (the paper's section 5.2), and also when a
// ready task is not in the plan or its processor is no longer usable
// (after a failure and rewinding, or newly submitted work).
//
// Not done here: migrating a task that already runs (GTP moves a placed
// task when that finishes it earlier; gsrt's engine stops running jobs
// only for proactive policies, so a running task stays where it is and
// the plan counts it there).
#ifndef GSRT_RUNTIME_SCHED_POLICIES_GTP_H_
#define GSRT_RUNTIME_SCHED_POLICIES_GTP_H_

#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

#include "runtime/sched/gtp_plan.h"
#include "runtime/sched/scheduler.h"

namespace gs {

// A policy that plans over the whole DAG; the engine asks it before each
// round whether it wants a fresh view.
class DagPlanningPolicy {
 public:
  virtual ~DagPlanningPolicy() = default;
  virtual bool WantsDag(Seconds now, std::span<const ReadyTask> ready,
                        const std::vector<HostState>& hosts) const = 0;
  // `dag`'s task k is the engine's task ids[k].
  virtual void SetDag(const GtpInput& dag, std::vector<TaskId> ids) = 0;
};

class GtpPolicy : public Policy, public DagPlanningPolicy {
 public:
  std::string_view name() const override { return "gtp"; }
  Choice Choose(const ReadyTask& task, const SlotBoard& board,
                const Predictor& predictor) override;
  void Place(std::span<const ReadyTask> ready, const SchedulingInput& in,
             std::vector<Placement>* out) override;

  bool WantsDag(Seconds now, std::span<const ReadyTask> ready,
                const std::vector<HostState>& hosts) const override;
  void SetDag(const GtpInput& dag, std::vector<TaskId> ids) override;

  // The planned processor of `task` (kGtpNone: not planned).
  size_t PlannedHost(TaskId task) const;
  size_t plans() const { return plans_; }

 private:
  struct Planned {
    size_t host;
    Seconds start;
  };
  std::unordered_map<TaskId, Planned> plan_;
  Seconds next_point_ = 0;
  size_t plans_ = 0;
};

std::unique_ptr<Policy> MakeGtpPolicy();

}  // namespace gs

#endif  // GSRT_RUNTIME_SCHED_POLICIES_GTP_H_
