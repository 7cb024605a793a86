#include "runtime/sched/gang_choice.h"

#include <algorithm>

namespace gs {

namespace {

bool Allowed(const HostMask* allowed, HostId h) {
  return allowed == nullptr || (h < allowed->size() && (*allowed)[h]);
}

}  // namespace

std::vector<HostId> ChooseGang(const std::vector<HostState>& states,
                               const std::vector<std::vector<HostId>>& groups,
                               int nodes, const Need& per_node,
                               const HostMask* allowed) {
  if (nodes < 1) return {};
  for (const std::vector<HostId>& group : groups) {
    std::vector<std::pair<int, HostId>> ready;  // (-free cores, host)
    for (HostId h : group) {
      if (h >= states.size() || !Allowed(allowed, h)) continue;
      const HostState& s = states[h];
      if (!s.usable || s.FreeFor(per_node) < 1) continue;
      ready.emplace_back(-s.free_slots(), h);
    }
    if (ready.size() < static_cast<size_t>(nodes)) continue;
    std::partial_sort(ready.begin(), ready.begin() + nodes, ready.end());
    std::vector<HostId> chosen;
    for (int i = 0; i < nodes; ++i) chosen.push_back(ready[i].second);
    return chosen;
  }
  return {};
}

std::vector<HostId> GangToWaitFor(
    const std::vector<HostState>& states,
    const std::vector<std::vector<HostId>>& groups, int nodes,
    const Need& per_node, const HostMask* allowed) {
  if (nodes < 1) return {};
  for (const std::vector<HostId>& group : groups) {
    std::vector<std::pair<int, HostId>> able;  // (-free cores, host)
    for (HostId h : group) {
      if (h >= states.size() || !Allowed(allowed, h)) continue;
      const HostState& s = states[h];
      if (!s.usable || !s.Fits(per_node)) continue;
      able.emplace_back(-s.free_slots(), h);
    }
    if (able.size() < static_cast<size_t>(nodes)) continue;
    std::partial_sort(able.begin(), able.begin() + nodes, able.end());
    std::vector<HostId> chosen;
    for (int i = 0; i < nodes; ++i) chosen.push_back(able[i].second);
    return chosen;
  }
  return {};
}

bool SomeGangFits(const std::vector<HostState>& capacities,
                  const std::vector<std::vector<HostId>>& groups, int nodes,
                  const Need& per_node, const HostMask* allowed) {
  for (const std::vector<HostId>& group : groups) {
    int fit = 0;
    for (HostId h : group) {
      if (h < capacities.size() && Allowed(allowed, h) &&
          capacities[h].Fits(per_node))
        ++fit;
    }
    if (fit >= nodes) return true;
  }
  return false;
}

}  // namespace gs
