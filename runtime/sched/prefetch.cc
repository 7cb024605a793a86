#include "runtime/sched/prefetch.h"

#include <algorithm>

namespace gs {

int PrefetchDepth(int base, Seconds window, int slots, Seconds mean_job) {
  if (base <= 0 || !(window > 0) || !(mean_job > 0)) return std::max(0, base);
  const int per = std::max(1, slots);
  const double fit = window * per / mean_job;
  const int cap = kMaxPrefetchPerSlot * per;
  const int depth = fit >= cap ? cap : static_cast<int>(fit);
  return std::max(base, depth);
}

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
