// Paper 002's P and E computed exactly over the joint chain of a host set,
// where the set is small enough, to check the closed form of
// runtime/sched/volatile_model.h.
//
// The set starts with every host UP and computes in that first slot; from
// then on it computes in a slot where all its hosts are UP, waits while
// some are RECLAIMED, and fails as soon as one is DOWN. The slots between
// two computing slots are independent "steps" (the chain is back in the
// all-UP state after each), so with W slots of work
//   P = s^(W-1),  E = 1 + (W-1) * tau
// where s is the probability that a step ends in all-UP before any DOWN,
// and tau its mean length given that it does. Both come from one linear
// solve over the transient states {UP, RECLAIMED}^n minus all-UP (DOWN is
// absorbing): 2^n - 1 unknowns, so n is bounded.
#ifndef GSRT_RUNTIME_SCHED_VOLATILE_EXACT_H_
#define GSRT_RUNTIME_SCHED_VOLATILE_EXACT_H_

#include <optional>
#include <vector>

#include "runtime/sched/volatile_model.h"

namespace gs {

inline constexpr size_t kMaxExactHosts = 8;

struct ExactStep {
  double success = 1;  // s
  double slots = 1;    // tau
};

// nullopt for more than kMaxExactHosts hosts, or a host that once
// RECLAIMED stays so forever (P_rr = 1).
std::optional<ExactStep> ExactStepOf(
    const std::vector<AvailabilityChain>& hosts);

// P and E (in slots) of W slots of simultaneous computation.
double ExactSuccessProbability(const ExactStep& step, double w);
double ExactExpectedSlots(const ExactStep& step, double w);

}  // namespace gs

#endif  // GSRT_RUNTIME_SCHED_VOLATILE_EXACT_H_
