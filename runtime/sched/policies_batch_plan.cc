#include "runtime/sched/policies_batch_plan.h"

#include <algorithm>
#include <limits>
#include <string>
#include <unordered_map>

#include "runtime/sched/mapping_local_search.h"
#include "runtime/sched/policies_minmin.h"
#include "runtime/sched/policies_sufferage.h"

namespace gs {

BatchPlan PlanBatch(std::span<const ReadyTask> tasks, const SchedulingInput& in,
                    BatchHeuristic heuristic, bool local_search) {
  BatchPlan plan;
  plan.host_of.assign(tasks.size(), kNoHost);
  SlotBoard board(in);
  std::vector<MinMinStep> steps =
      heuristic == BatchHeuristic::kSufferage
          ? SufferageMap(tasks, board, *in.predictor, false)
          : MinMinMap(tasks, board, *in.predictor, false);
  for (const MinMinStep& s : steps) {
    plan.host_of[s.task_index] = s.host;
    plan.order.push_back(s.task_index);
  }
  if (!local_search || steps.size() < tasks.size()) return plan;
  const auto& hosts = *in.hosts;
  LocalSearchInput ls;
  ls.ready.resize(hosts.size());
  ls.slots.resize(hosts.size());
  for (HostId h = 0; h < hosts.size(); ++h) {
    const HostState& s = hosts[h];
    ls.slots[h] = s.usable ? s.slots : 0;
    // Each slot busy until its job's predicted end, spread over the slots.
    Seconds busy = 0;
    for (Seconds until : s.busy_until)
      busy += std::max<Seconds>(0, until - in.now);
    ls.ready[h] = in.now + (s.slots > 0 ? busy / s.slots : 0);
  }
  ls.time.resize(tasks.size() * hosts.size());
  for (size_t i = 0; i < tasks.size(); ++i) {
    for (HostId h = 0; h < hosts.size(); ++h) {
      // A host the task cannot go to (its cores, memory or runtime.hosts):
      // no move of the search ever ends earlier there.
      ls.time[i * hosts.size() + h] =
          board.Fits(h, tasks[i].need)
              ? in.predictor->ExecTime(tasks[i].op, h) +
                    in.predictor->TransferTime(tasks[i].id, h)
              : std::numeric_limits<Seconds>::infinity();
    }
  }
  ImproveMapping(ls, &plan.host_of);
  return plan;
}

namespace {

class BatchPlanPolicy : public Policy {
 public:
  BatchPlanPolicy(std::string name, BatchHeuristic heuristic)
      : name_(std::move(name)), heuristic_(heuristic) {}
  std::string_view name() const override { return name_; }

  // One task alone: its minimum completion time host.
  Choice Choose(const ReadyTask& task, const SlotBoard& board,
                const Predictor& predictor) override {
    Choice best{kNoHost, std::numeric_limits<Seconds>::infinity()};
    for (HostId h = 0; h < board.num_hosts(); ++h) {
      if (!board.Fits(h, task.need)) continue;
      Seconds end = board.EarliestFor(h, task.need) +
                    predictor.ExecTime(task.op, h) +
                    predictor.TransferTime(task.id, h);
      if (end < best.end) best = {h, end};
    }
    return best;
  }

  void Place(std::span<const ReadyTask> ready, const SchedulingInput& in,
             std::vector<Placement>* out) override {
    if (ready.empty()) return;
    if (!PlanHolds(ready, in)) Replan(ready, in);
    // What starts now: each planned task whose host has room for its
    // need, in the heuristic's order.
    SlotBoard board(in);
    std::unordered_map<TaskId, const ReadyTask*> is_ready;
    for (const ReadyTask& r : ready) is_ready[r.id] = &r;
    for (TaskId task : order_) {
      auto it = is_ready.find(task);
      if (it == is_ready.end()) continue;
      HostId h = plan_[task];
      const Need& need = it->second->need;
      if (!board.FreeNowFor(h, need)) continue;
      Seconds end = in.now + in.predictor->ExecTime(it->second->op, h) +
                    in.predictor->TransferTime(task, h);
      board.Take(h, need, end);
      out->push_back({task, h, end});
    }
  }

 private:
  bool PlanHolds(std::span<const ReadyTask> ready,
                 const SchedulingInput& in) const {
    for (const ReadyTask& r : ready) {
      auto it = plan_.find(r.id);
      if (it == plan_.end()) return false;
      const HostState& h = (*in.hosts)[it->second];
      if (!h.usable || h.slots <= 0 || !h.Fits(r.need) ||
          !r.need.Allows(it->second))
        return false;
    }
    return true;
  }

  void Replan(std::span<const ReadyTask> ready, const SchedulingInput& in) {
    BatchPlan p = PlanBatch(ready, in, heuristic_, /*local_search=*/true);
    plan_.clear();
    order_.clear();
    for (size_t i : p.order) {
      if (p.host_of[i] == kNoHost) continue;
      plan_[ready[i].id] = p.host_of[i];
      order_.push_back(ready[i].id);
    }
  }

  std::string name_;
  BatchHeuristic heuristic_;
  std::unordered_map<TaskId, HostId> plan_;
  std::vector<TaskId> order_;  // the heuristic's mapping order
};

}  // namespace

std::unique_ptr<Policy> MakeBatchPlanPolicy(std::string_view name) {
  if (name == "min-min-ls")
    return std::make_unique<BatchPlanPolicy>("min-min-ls",
                                             BatchHeuristic::kMinMin);
  if (name == "sufferage-ls")
    return std::make_unique<BatchPlanPolicy>("sufferage-ls",
                                             BatchHeuristic::kSufferage);
  return nullptr;
}

}  // namespace gs
