#include "runtime/sched/prefetch.h"

#include <algorithm>

namespace gs {

bool PrefetchStates(std::span<const int> depth, std::span<const int> capacity,
                    std::vector<HostState>* states) {
  bool room = false;
  for (size_t h = 0; h < states->size(); ++h) {
    HostState& s = (*states)[h];
    const int d = h < depth.size() ? depth[h] : 0;
    if (s.usable && d > 0) {
      const int c = h < capacity.size() ? capacity[h] : s.slots;
      s.slots = std::max(1, c) + d;
    } else {
      s.usable = false;  // not offered in this pass
    }
    room = room || s.free_slots() > 0;
  }
  return room;
}

}  // namespace gs
