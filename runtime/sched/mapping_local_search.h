// Bounded local search on a mapping of independent tasks to hosts, after a
// constructive heuristic (Min-Min, Sufferage): the makespan-centred moves of
// the ETC literature (e.g. Xhafa et al.'s local-move and swap
// neighbourhoods). Repeatedly take the host that ends last and apply the
// best of
//   move: one of its tasks to another host,
//   swap: one of its tasks with a task of another host,
// that makes both hosts involved end strictly before it ends now; stop at a
// local optimum or after `max_moves` moves. Each move lowers the latest
// end or the number of hosts sharing it, so the search always ends.
//
// A host runs its tasks from `ready[h]` on its `slots[h]` slots, its end
// taken as ready[h] + (sum of its tasks' times) / slots[h]: exact for one
// slot (the ETC model), a balance estimate for more.
#ifndef GSRT_RUNTIME_SCHED_MAPPING_LOCAL_SEARCH_H_
#define GSRT_RUNTIME_SCHED_MAPPING_LOCAL_SEARCH_H_

#include <cstddef>
#include <vector>

#include "runtime/sched/scheduler.h"

namespace gs {

struct LocalSearchInput {
  std::vector<Seconds> ready;  // per host
  std::vector<int> slots;      // per host; 0: not usable
  // time[i * hosts + h]: task i's time on host h (execution + transfer).
  std::vector<Seconds> time;
  size_t max_moves = 0;  // 0: 20 per task
};

// Improves `host_of` (one host per task, each usable); returns the number
// of moves made.
size_t ImproveMapping(const LocalSearchInput& in, std::vector<HostId>* host_of);

// The hosts' ends under `host_of` (as the search counts them).
std::vector<Seconds> HostEnds(const LocalSearchInput& in,
                              const std::vector<HostId>& host_of);

}  // namespace gs

#endif  // GSRT_RUNTIME_SCHED_MAPPING_LOCAL_SEARCH_H_
