// Who runs a batch element: DIR/claim.<index>, created once and never
// replaced, holds the batch id of the job that runs spec.<index>, or
// "void" when a restarted master got there first.
//
// The claim closes the submission hole of job mode: the queue may accept
// a job and the master die before `sbatch` prints its id. The master
// records each element before it submits (with no id yet); the master
// started again finds that record and claims the element itself. If the
// claim is its own ("void"), the job, should it ever start, exits without
// running the spec, and the task runs again as a new job; if the job
// claimed it first, its id is in the claim and the job is taken over.
// Either way the task runs once.
#ifndef GSRT_ADAPTERS_BATCH_NODE_BATCH_CLAIM_H_
#define GSRT_ADAPTERS_BATCH_NODE_BATCH_CLAIM_H_

#include <functional>
#include <string>
#include <variant>

#include "runtime/base/status.h"

namespace gs {

// What a master writes into a claim so that no job runs the element.
inline constexpr char kVoidClaim[] = "void";

std::string BatchClaimPath(const std::string& dir, int index);

// The claim was ours: it now holds `owner`.
struct ClaimWon {};
// Someone claimed it first: who.
struct ClaimHeld {
  std::string owner;
};
using ClaimOutcome = std::variant<ClaimWon, ClaimHeld>;

// Claims element `index` of `dir` for `owner`, atomically (written whole
// under a temporary name, then linked into place, which fails when the
// claim exists: a reader never sees half a claim).
StatusOr<ClaimOutcome> ClaimBatchElement(const std::string& dir, int index,
                                         const std::string& owner);

// The running batch job's id as the queue listing shows it ("12_3" for an
// array element, as BatchSystem::ElementId), from its environment
// (`lookup` returns nullptr for an unset variable); "" outside a batch job.
std::string OwnBatchId(const std::function<const char*(const char*)>& lookup);

}  // namespace gs

#endif  // GSRT_ADAPTERS_BATCH_NODE_BATCH_CLAIM_H_
