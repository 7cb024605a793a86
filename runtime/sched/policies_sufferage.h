// Sufferage, the batch-mode mapping heuristic of Maheswaran et al. (1999,
// "Dynamic mapping of a class of independent tasks onto heterogeneous
// computing systems"): a task's sufferage is how much later it would end
// on its second-best host than on its best one. Among the tasks not yet
// mapped, the one that would suffer most goes first, to its best host;
// repeat. Where Min-Min serves short tasks first, Sufferage serves the
// tasks that have the most to lose.
#ifndef GSRT_RUNTIME_SCHED_POLICIES_SUFFERAGE_H_
#define GSRT_RUNTIME_SCHED_POLICIES_SUFFERAGE_H_

#include <memory>
#include <vector>

#include "runtime/sched/policies_minmin.h"
#include "runtime/sched/scheduler.h"

namespace gs {

// The Sufferage core, shared by the policy and whole-bag mapping: as
// MinMinMap (same steps, same board use, same stop rules) with the pick
// above. A task with one usable host suffers infinitely (it has no
// alternative). Ties go to the task earlier in `tasks`, then to the lowest
// host index.
std::vector<MinMinStep> SufferageMap(std::span<const ReadyTask> tasks,
                                     SlotBoard& board,
                                     const Predictor& predictor,
                                     bool only_while_free);

// Sufferage as a scheduling policy ("sufferage"): like "min-min", Place()
// maps the whole ready list and starts the tasks whose host is free now.
std::unique_ptr<Policy> MakeSufferagePolicy();

}  // namespace gs

#endif  // GSRT_RUNTIME_SCHED_POLICIES_SUFFERAGE_H_
