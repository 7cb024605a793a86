// Where an MPI job over several nodes goes when gsrt itself places it: on
// `nodes` hosts of one gang group (the nodes of one allocation, each a host
// of its own), each able to start the job's per-node share now. All of
// them or none: a gang that does not fit whole takes nothing, so two gangs
// never each hold half of what both need (docs/design.md, "Gangs").
#ifndef GSRT_RUNTIME_SCHED_GANG_CHOICE_H_
#define GSRT_RUNTIME_SCHED_GANG_CHOICE_H_

#include <vector>

#include "runtime/sched/scheduler.h"

namespace gs {

// `groups`: the hosts of each gang group. `allowed`: the hosts the
// operation may use (null: any). The chosen hosts, the leader (which runs
// the job's runner) first: in the first group where `nodes` of its usable,
// allowed members can start `per_node` now, those with the most free cores
// (ties: the lower HostId). Empty when no group can.
std::vector<HostId> ChooseGang(const std::vector<HostState>& states,
                               const std::vector<std::vector<HostId>>& groups,
                               int nodes, const Need& per_node,
                               const HostMask* allowed);

// The hosts a gang that cannot start now waits for: in the first group
// with `nodes` usable, allowed members that could ever hold `per_node`,
// those with the most free cores now. The caller holds their free cores
// for it, so that smaller jobs cannot keep it waiting forever (as the
// default policy reserves for a big task). Empty when no group could.
std::vector<HostId> GangToWaitFor(
    const std::vector<HostState>& states,
    const std::vector<std::vector<HostId>>& groups, int nodes,
    const Need& per_node, const HostMask* allowed);

// Whether some group has `nodes` allowed members that could ever hold
// `per_node` (Admit's question: false refuses the operation at the call).
bool SomeGangFits(const std::vector<HostState>& capacities,
                  const std::vector<std::vector<HostId>>& groups, int nodes,
                  const Need& per_node, const HostMask* allowed);

}  // namespace gs

#endif  // GSRT_RUNTIME_SCHED_GANG_CHOICE_H_
