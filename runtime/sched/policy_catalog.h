// Every scheduling policy name gsrt.yaml's `policy:` and gsrt-sim accept,
// with one line saying what it does and where it comes from. `gsrt-sim
// policies` prints it; a test checks that MakePolicy knows every name.
#ifndef GSRT_RUNTIME_SCHED_POLICY_CATALOG_H_
#define GSRT_RUNTIME_SCHED_POLICY_CATALOG_H_

#include <string>
#include <vector>

namespace gs {

struct PolicyInfo {
  std::string name;
  std::string description;
};

// In a stable order: the immediate and batch heuristics, the fault-tolerant
// ones, grank, the work queues, then paper 002's passive and proactive
// forms.
const std::vector<PolicyInfo>& PolicyCatalog();

}  // namespace gs

#endif  // GSRT_RUNTIME_SCHED_POLICY_CATALOG_H_
