#include "runtime/sched/gang_choice.h"

#include <algorithm>

namespace gs {

namespace {

bool Allowed(const HostMask* allowed, HostId h) {
  return allowed == nullptr || (h < allowed->size() && (*allowed)[h]);
}

// In the first group with `nodes` usable, allowed members that `able`
// accepts, those with the most free cores (ties: the lower HostId).
template <typename Able>
std::vector<HostId> FreestMembers(
    const std::vector<HostState>& states,
    const std::vector<std::vector<HostId>>& groups, int nodes,
    const HostMask* allowed, Able able) {
  if (nodes < 1) return {};
  for (const std::vector<HostId>& group : groups) {
    std::vector<std::pair<int, HostId>> members;  // (-free cores, host)
    for (HostId h : group) {
      if (h >= states.size() || !Allowed(allowed, h)) continue;
      const HostState& s = states[h];
      if (s.usable && able(s)) members.emplace_back(-s.free_slots(), h);
    }
    if (members.size() < static_cast<size_t>(nodes)) continue;
    std::partial_sort(members.begin(), members.begin() + nodes, members.end());
    std::vector<HostId> chosen;
    for (int i = 0; i < nodes; ++i) chosen.push_back(members[i].second);
    return chosen;
  }
  return {};
}

}  // namespace

std::vector<HostId> ChooseGang(const std::vector<HostState>& states,
                               const std::vector<std::vector<HostId>>& groups,
                               int nodes, const Need& per_node,
                               const HostMask* allowed) {
  return FreestMembers(states, groups, nodes, allowed, [&](const HostState& s) {
    return s.FreeFor(per_node) >= 1;
  });
}

std::vector<HostId> GangToWaitFor(
    const std::vector<HostState>& states,
    const std::vector<std::vector<HostId>>& groups, int nodes,
    const Need& per_node, const HostMask* allowed) {
  return FreestMembers(states, groups, nodes, allowed,
                       [&](const HostState& s) { return s.Fits(per_node); });
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
