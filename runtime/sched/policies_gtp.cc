#include "runtime/sched/policies_gtp.h"

#include <algorithm>

namespace gs {

bool GtpPolicy::WantsDag(Seconds now, std::span<const ReadyTask> ready,
                         const std::vector<HostState>& hosts) const {
  if (plans_ == 0 || now >= next_point_) return true;
  for (const ReadyTask& r : ready) {
    auto it = plan_.find(r.id);
    if (it == plan_.end() || it->second.host >= hosts.size() ||
        !hosts[it->second.host].usable)
      return true;
  }
  return false;
}

void GtpPolicy::SetDag(const GtpInput& dag, std::vector<TaskId> ids) {
  GtpPlan plan = PlanGtp(dag);
  plan_.clear();
  for (size_t v : plan.order) {
    if (plan.processor[v] == kGtpNone) continue;
    plan_[ids[v]] = {plan.processor[v], plan.start[v]};
  }
  // The next rescheduling point: 10 % of the planned makespan later (at
  // least a moment, so a plan made at time 0 of an empty DAG still ends).
  next_point_ = dag.now + std::max<Seconds>(0.1 * plan.makespan, 1e-3);
  ++plans_;
}

size_t GtpPolicy::PlannedHost(TaskId task) const {
  auto it = plan_.find(task);
  return it == plan_.end() ? kGtpNone : it->second.host;
}

Policy::Choice GtpPolicy::Choose(const ReadyTask& task, const SlotBoard& board,
                                 const Predictor& predictor) {
  size_t h = PlannedHost(task.id);
  if (h == kGtpNone || h >= board.num_hosts() ||
      !board.usable(static_cast<HostId>(h)) ||
      !board.Fits(static_cast<HostId>(h), task.need))
    return ReserveEarliest(task, board, predictor);  // not in the plan
  const HostId host = static_cast<HostId>(h);
  Seconds start = board.EarliestFor(host, task.need) +
                  predictor.TransferTime(task.id, host);
  return {host, start + predictor.ExecTime(task.op, host)};
}

void GtpPolicy::Place(std::span<const ReadyTask> ready,
                      const SchedulingInput& in, std::vector<Placement>* out) {
  // The plan's order on each processor: by planned start.
  std::vector<ReadyTask> sorted(ready.begin(), ready.end());
  auto start = [&](const ReadyTask& r) {
    auto it = plan_.find(r.id);
    return it == plan_.end() ? in.now : it->second.start;
  };
  std::stable_sort(sorted.begin(), sorted.end(),
                   [&](const ReadyTask& a, const ReadyTask& b) {
                     return start(a) < start(b);
                   });
  Policy::Place(sorted, in, out);
}

std::unique_ptr<Policy> MakeGtpPolicy() {
  return std::make_unique<GtpPolicy>();
}

}  // namespace gs
