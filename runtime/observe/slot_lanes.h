// Which lane (slot row) of its host a job attempt is drawn on, for the
// trace and the live page. Attempts arrive in the order they end; each
// lane keeps its last end. An attempt takes, of the lanes free from its
// start, the one freed last (best fit), else a new lane. Taking the first
// free lane instead can open a lane more than the host has slots (issue
// 36); best fit never did on 2,000 random schedules (trace_builder_test).
// Pure; not thread-safe.
#ifndef GSRT_RUNTIME_OBSERVE_SLOT_LANES_H_
#define GSRT_RUNTIME_OBSERVE_SLOT_LANES_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gs {

// `ends`: per lane, its last end. Records [start, end] on the chosen lane
// and returns its index (== the old size when a lane was added).
inline size_t TakeSlotLane(std::vector<int64_t>* ends, int64_t start,
                           int64_t end) {
  size_t best = ends->size();
  for (size_t i = 0; i < ends->size(); ++i) {
    const int64_t free_from = (*ends)[i];
    if (free_from <= start &&
        (best == ends->size() || free_from > (*ends)[best])) {
      best = i;
    }
  }
  if (best == ends->size()) ends->push_back(end);
  (*ends)[best] = end;
  return best;
}

}  // namespace gs

#endif  // GSRT_RUNTIME_OBSERVE_SLOT_LANES_H_
