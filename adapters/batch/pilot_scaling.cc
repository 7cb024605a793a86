#include "adapters/batch/pilot_scaling.h"

#include <algorithm>

namespace gs {

PilotScaling DecidePilots(const PilotCensus& census,
                          const PilotLimits& limits) {
  PilotScaling out;
  const int serving = static_cast<int>(census.idle_for.size());
  const int alive = census.pending + serving;
  const int floor = std::max(1, limits.floor);
  int ceiling = std::max(floor, limits.max_pilots);
  if (limits.max_jobs > 0) ceiling = std::min(ceiling, limits.max_jobs);

  if (alive < floor) {
    out.submit = floor - alive;  // replacements are not demand-driven
    return out;
  }
  if (census.waiting_tasks > 0) {
    if (census.pending == 0 && census.free_slots == 0 && alive < ceiling) {
      out.submit = 1;
    }
    return out;
  }
  std::vector<size_t> idle;
  for (size_t i = 0; i < census.idle_for.size(); ++i) {
    if (census.idle_for[i] >= 0 && census.idle_for[i] >= limits.linger) {
      idle.push_back(i);
    }
  }
  // Longest idle first; the index breaks ties so the answer is stable.
  std::sort(idle.begin(), idle.end(), [&](size_t a, size_t b) {
    if (census.idle_for[a] != census.idle_for[b]) {
      return census.idle_for[a] > census.idle_for[b];
    }
    return a < b;
  });
  const size_t may_leave = static_cast<size_t>(alive - floor);
  if (idle.size() > may_leave) idle.resize(may_leave);
  out.retire = std::move(idle);
  return out;
}

}  // namespace gs
