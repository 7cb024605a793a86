// Paper 002's availability model for live runs: each host's UP / RECLAIMED
// / DOWN chain estimated from what the runtime sees, so the volatile
// policies (ip, ie, iy, iay and the proactive forms) work outside the
// simulator.
//
// - Every slot the engine tells the state of each host as its health shows
//   it: up -> UP, suspect (connected but missed a heartbeat) -> RECLAIMED,
//   down -> DOWN. Each pair of consecutive observations is one transition.
// - Between slots, the engine also tells the changes it sees at once: a
//   host lost (a job or transfer ended with the host failing, heartbeats
//   stopped) is DOWN, a host reconnected is UP. A loss shorter than a slot
//   is counted, and the policies never place on a host the engine has lost.
// - Before the run, the history's availability checks of the host (ta
//   checks, na unanswered, paper 004 eq. 1) count as ta - na UP->UP
//   transitions and na UP->DOWN->UP round trips, and each infrastructure
//   failure earlier runs charged to the host (its distrust, eq. 3: a host
//   lost, a job ended by its host failing) as one more round trip.
// - The chain is the maximum-likelihood estimate over these counts plus
//   one "stays where it is" count per state, so a host never seen leaving
//   UP is taken as always UP (P = 1, the plain heuristics' behaviour).
//
// Live runs have no fixed configuration size: tasks_per_configuration() is
// 0, which the policies read as "every ready task that fits a free slot".
#ifndef GSRT_RUNTIME_SCHED_LEARNED_AVAILABILITY_H_
#define GSRT_RUNTIME_SCHED_LEARNED_AVAILABILITY_H_

#include <cstdint>
#include <vector>

#include "runtime/sched/volatile_model.h"

namespace gs {

class LearnedAvailability : public VolatileHosts {
 public:
  explicit LearnedAvailability(Seconds slot) : slot_(slot) {}

  void set_slot(Seconds slot) { slot_ = slot; }
  // From the history, before the first observation.
  void Seed(HostId h, int64_t attempts, int64_t not_answered,
            int64_t losses = 0);
  // The state of `h` now; called once per slot for every host.
  void Observe(HostId h, HostAvail state);
  // A change seen between slots: an observation unless `h` was already
  // taken to be in `state`.
  void ObserveChange(HostId h, HostAvail state);
  // Observations of `h` so far (the seed not included).
  uint64_t observations(HostId h) const;

  Seconds slot() const override { return slot_; }
  const AvailabilityChain& chain(HostId h) const override;
  HostAvail state(HostId h) const override;
  uint32_t tasks_per_configuration() const override { return 0; }

 private:
  struct Host {
    double counts[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    HostAvail last = HostAvail::kUp;
    uint64_t observed = 0;
    AvailabilityChain chain;
  };
  Host& At(HostId h);
  static void Refit(Host& host);

  Seconds slot_;
  std::vector<Host> hosts_;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_SCHED_LEARNED_AVAILABILITY_H_
