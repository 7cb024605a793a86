#include "runtime/sched/host_labels.h"

#include <algorithm>

namespace gs {

HostMask HostsCarrying(std::span<const HostLabels> hosts,
                       const std::vector<std::string>& wanted) {
  HostMask mask(hosts.size(), false);
  for (size_t h = 0; h < hosts.size(); ++h) {
    for (const std::string& label : wanted) {
      if (label == hosts[h].name ||
          std::find(hosts[h].labels.begin(), hosts[h].labels.end(), label) !=
              hosts[h].labels.end()) {
        mask[h] = true;
        break;
      }
    }
  }
  return mask;
}

std::map<std::string, KeptTo> PlacementMasks(
    const std::map<std::string, std::vector<std::string>>& placement,
    std::span<const HostLabels> hosts) {
  std::map<std::string, KeptTo> masks;
  for (const auto& [op, wanted] : placement)
    masks.emplace(op, KeptTo{wanted, HostsCarrying(hosts, wanted)});
  return masks;
}

}  // namespace gs
