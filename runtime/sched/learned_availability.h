// Paper 002's availability model for live runs: each host's UP / RECLAIMED
// / DOWN chain estimated from what the runtime sees, so the volatile
// policies (ip, ie, iy, iay and the proactive forms) work outside the
// simulator. The engine observes each host every slot (up, suspect, down
// as UP, RECLAIMED, DOWN) and tells the losses and reconnections it sees
// between slots; the history's checks and failures seed the counts. The
// chain is the maximum-likelihood estimate over them plus one "stays"
// count per state, so a host never seen leaving UP is always UP
// (docs/algorithms.md, "Learned availability").
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
