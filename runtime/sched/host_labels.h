// Which hosts an operation kept to some labels may run on (runtime.hosts
// in gsrt.yaml): a host carries its `labels` and its own name, and an
// operation goes to any host carrying one of its labels. Pure.
#ifndef GSRT_RUNTIME_SCHED_HOST_LABELS_H_
#define GSRT_RUNTIME_SCHED_HOST_LABELS_H_

#include <map>
#include <span>
#include <string>
#include <vector>

#include "runtime/sched/scheduler.h"

namespace gs {

struct HostLabels {
  std::string name;
  std::vector<std::string> labels;
};

// By HostId (the order of `hosts`): whether the host carries one of
// `wanted`.
HostMask HostsCarrying(std::span<const HostLabels> hosts,
                       const std::vector<std::string>& wanted);

// An operation's labels and the hosts carrying one of them.
struct KeptTo {
  std::vector<std::string> labels;
  HostMask hosts;
};

// For each operation of `placement` (operation -> labels).
std::map<std::string, KeptTo> PlacementMasks(
    const std::map<std::string, std::vector<std::string>>& placement,
    std::span<const HostLabels> hosts);

}  // namespace gs

#endif  // GSRT_RUNTIME_SCHED_HOST_LABELS_H_
