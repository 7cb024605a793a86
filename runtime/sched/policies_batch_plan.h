// Batch mapping followed by bounded local search, as policies: "min-min-ls"
// and "sufferage-ls". A round maps the whole ready list with Min-Min or
// Sufferage (reserving future slots), improves that mapping with
// runtime/sched/mapping_local_search.h, and keeps it as the plan. Later
// rounds follow the plan (each host with a free slot starts its next
// planned task) as long as it holds: every ready task is in it and every
// host it uses is still usable; otherwise the ready list is planned again.
// Following the plan instead of re-planning every round keeps a round
// cheap and lets the search's gain survive: a fresh Min-Min would undo it.
#ifndef GSRT_RUNTIME_SCHED_POLICIES_BATCH_PLAN_H_
#define GSRT_RUNTIME_SCHED_POLICIES_BATCH_PLAN_H_

#include <memory>
#include <string_view>
#include <vector>

#include "runtime/sched/scheduler.h"

namespace gs {

enum class BatchHeuristic { kMinMin, kSufferage };

// The host of each of `tasks` (kNoHost if none is usable) and the order in
// which the heuristic mapped them, `tasks` mapped on the hosts of `in` as
// one batch, then improved by the local search if `local_search`.
struct BatchPlan {
  std::vector<HostId> host_of;  // per index into `tasks`
  std::vector<size_t> order;    // indexes into `tasks`, mapping order
};
BatchPlan PlanBatch(std::span<const ReadyTask> tasks, const SchedulingInput& in,
                    BatchHeuristic heuristic, bool local_search);

// "min-min-ls" or "sufferage-ls"; nullptr for another name.
std::unique_ptr<Policy> MakeBatchPlanPolicy(std::string_view name);

}  // namespace gs

#endif  // GSRT_RUNTIME_SCHED_POLICIES_BATCH_PLAN_H_
