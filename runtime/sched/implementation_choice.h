// Which implementation of an operation a placed task runs (COMPSs's
// @Implements): the scheduler places the task with the need of the
// operation the program called; once a round is placed, each task whose
// operation has alternatives runs the first of them, in IDL order, that
// fits its host with the room the round left there, else the called
// operation itself. Pure; the engine applies it (Engine::ScheduleLocked).
#ifndef GSRT_RUNTIME_SCHED_IMPLEMENTATION_CHOICE_H_
#define GSRT_RUNTIME_SCHED_IMPLEMENTATION_CHOICE_H_

#include <vector>

#include "runtime/sched/scheduler.h"

namespace gs {

// Room left on one host once its running jobs and this round's placements
// hold their needs.
struct SpareRoom {
  int cores = 0;
  double memory_gb = 0;
  bool memory_limited = false;  // false: the host's memory is not known
  int gpus = 0;
};

// What `host` has left after its running jobs (as the round saw them) and
// the needs placed on it in this round.
SpareRoom SpareAfterRound(const HostState& host,
                          const std::vector<Need>& placed_here);

// The index in `alternatives` of the first whose need fits in what `base`
// (already held) plus `spare` can give, taking the difference out of
// `spare`; -1 (the called operation) when none fits.
int ChooseImplementation(const Need& base,
                         const std::vector<Need>& alternatives,
                         SpareRoom* spare);

}  // namespace gs

#endif  // GSRT_RUNTIME_SCHED_IMPLEMENTATION_CHOICE_H_
