// Paper 002's analytical approximations (section IV) for tightly-coupled
// work on volatile hosts: each host a 3-state Markov chain UP / RECLAIMED /
// DOWN per time slot. Pure functions, no engine.
//
// The computation phase is a first-order closed form, not the paper's
// exact computation over the joint chain: for one host q, p_q (UP again
// without a DOWN between) and t_q (after how many slots); for a set S
// needing W slots, P(S, W) = prod_q p_q^(W-1) and E(S, W) = 1 + (W - 1) *
// (1 + sum_q (t_q - 1)). Exact for one host and for hosts never RECLAIMED,
// optimistic otherwise (runtime/sched/volatile_exact.h is exact). The
// derivation and the error: docs/algorithms.md, "Paper 002's model".
#ifndef GSRT_RUNTIME_SCHED_VOLATILE_MODEL_H_
#define GSRT_RUNTIME_SCHED_VOLATILE_MODEL_H_

#include <cstdint>
#include <vector>

#include "runtime/base/clock.h"
#include "runtime/sched/scheduler.h"

namespace gs {

enum class HostAvail : uint8_t { kUp = 0, kReclaimed = 1, kDown = 2 };

// p[i][j]: probability of moving from state i to j in one slot.
struct AvailabilityChain {
  double p[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
};

struct HostStep {
  double p = 1;  // p_q
  double t = 1;  // t_q, slots
};

HostStep StepOf(const AvailabilityChain& chain);

// Probability of success and expected slots of W slots of simultaneous
// computation on the hosts whose steps are given.
double SuccessProbability(const std::vector<HostStep>& hosts, double w);
double ExpectedSlots(const std::vector<HostStep>& hosts, double w);

// P_ND(t) of section IV-B: the probability that a host UP now does not
// become DOWN within `slots` slots (RECLAIMED spells allowed), exact over
// its own chain: (1, 0) . Q^ceil(slots) . (1, 1)^T with Q the UP/RECLAIMED
// block of the chain.
double NotDownProbability(const AvailabilityChain& chain, double slots);

// The communication phase of section IV-B. Host q of the configuration
// needs n_q slots of transfers (the program unless it has it, and one data
// message per task); the master talks to at most n_com hosts at once.
//   E_q     = E^(q)(n_q), ExpectedSlots of q alone (0 when n_q = 0)
//   E_comm  = max_q E_q                        when |S| <= n_com
//           = max(max_q E_q, sum_q n_q / n_com) otherwise
//   P_comm  = prod_q P_ND^(q)(E_comm)
// n_com = 0 means no bound. The iteration's P is P_comm times the
// computation's, its E the sum (the paper's IP, IE, IY and IAY).
struct CommunicationNeed {
  AvailabilityChain chain;
  double slots = 0;  // n_q
};
struct CommunicationMeasure {
  double p = 1;
  double e = 0;  // slots
};
CommunicationMeasure Communication(const std::vector<CommunicationNeed>& hosts,
                                   uint32_t n_com);

// What the volatile policies know of the hosts: their chains, the slot
// length, what each task of a configuration costs per host, and the
// current states. The runtime gives it from its own observations; the
// simulator from its model.
class VolatileHosts {
 public:
  virtual ~VolatileHosts() = default;
  virtual Seconds slot() const = 0;
  virtual const AvailabilityChain& chain(HostId h) const = 0;
  virtual HostAvail state(HostId h) const = 0;
  // Tasks in one configuration (paper 002's m): the policy places m ready
  // tasks together or none.
  virtual uint32_t tasks_per_configuration() const = 0;
  // Communication (section IV-B), in slots: T_prog for a host that does
  // not hold the program, T_data per task, and the master's bound n_com
  // (0: none). All 0 by default: no communication phase.
  virtual double program_slots(HostId h) const { return 0; }
  virtual double data_slots() const { return 0; }
  virtual uint32_t n_com() const { return 0; }
  // Data messages of the current iteration host h already holds (x'_q):
  // x_q tasks there need only x_q - x'_q more.
  virtual uint32_t data_held(HostId h) const { return 0; }
};

}  // namespace gs

#endif  // GSRT_RUNTIME_SCHED_VOLATILE_MODEL_H_
