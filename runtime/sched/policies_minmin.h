// Min-Min, the batch-mode mapping heuristic (Ibarra & Kim 1977; Braun et
// al. 2001): among the tasks not yet mapped, take the one whose minimum
// completion time over all hosts is smallest and map it to that host;
// repeat. Short tasks go first, each to the host where it ends earliest.
#ifndef GSRT_RUNTIME_SCHED_POLICIES_MINMIN_H_
#define GSRT_RUNTIME_SCHED_POLICIES_MINMIN_H_

#include <memory>
#include <vector>

#include "runtime/sched/scheduler.h"

namespace gs {

// One mapping decision, in the order Min-Min makes them.
struct MinMinStep {
  size_t task_index;  // into the `tasks` given to MinMinMap
  HostId host;
  Seconds end;
  bool starts_now;  // the host had a free slot at the board's `now`
};

// The Min-Min core, shared by the policy (one scheduling round) and by
// whole-bag mapping (the ETC driver): maps `tasks` one by one, reserving a
// slot of the board for each (completion = host's earliest slot + transfer
// + execution). Ties go to the task earlier in `tasks`, then to the lowest
// host index. Stops when every task is mapped, when no usable host is left,
// or, with `only_while_free`, as soon as no slot is free now (later
// reservations could not start in this round anyway).
std::vector<MinMinStep> MinMinMap(std::span<const ReadyTask> tasks,
                                  SlotBoard& board, const Predictor& predictor,
                                  bool only_while_free);

// Min-Min as a scheduling policy ("min-min"). Place() maps the whole ready
// list with MinMinMap and starts the tasks whose host is free now; the rest
// stay ready and are mapped again next round with fresh host states.
// Choose() (one task alone) is MCT: Min-Min of a single task.
std::unique_ptr<Policy> MakeMinMinPolicy();

}  // namespace gs

#endif  // GSRT_RUNTIME_SCHED_POLICIES_MINMIN_H_
