// Fault-tolerant immediate-mode policies FTMET and FTMCT (paper 003, Panda,
// Khilar, Mohapatra, "FTMXT"), and the host-liveness seam they consult.
//
// MET and MCT rank the hosts for a task and take the best one. FTMET/FTMCT
// rank them the same way, then ask whether the best host passes its liveness
// check now (the paper's RTT probe through the GRS); a host that does not
// answer within the bound is skipped and the next one (the k-th best) is
// asked, and so on. Hosts are asked in rank order, best first, because a
// real check costs a round trip: only as many hosts are probed as needed.
#ifndef GSRT_RUNTIME_SCHED_POLICIES_FT_H_
#define GSRT_RUNTIME_SCHED_POLICIES_FT_H_

#include <memory>

#include "runtime/sched/scheduler.h"

namespace gs {

// Whether a host passes its liveness check now. The runtime feeds it from
// agent heartbeats, the simulator from its failure model, the ETC driver
// from a failure list. Distinct from HostState::usable: an unusable host is
// one the runtime already knows it cannot use (no policy considers it);
// a host that fails this check is one only the fault-tolerant policies
// notice, at the moment they would give it a task.
class HostHealth {
 public:
  virtual ~HostHealth() = default;
  virtual bool Alive(HostId host) const = 0;
};

// A policy that consults a HostHealth. Without one (nullptr, the default)
// every usable host counts as alive, so a run that has no liveness source
// still works and behaves like the plain policy.
class HealthAwarePolicy : public Policy {
 public:
  // Not owned; must outlive its use by the policy, or be reset to nullptr.
  void set_host_health(const HostHealth* health) { health_ = health; }

 protected:
  bool Alive(HostId h) const { return health_ == nullptr || health_->Alive(h); }

 private:
  const HostHealth* health_ = nullptr;
};

// Gives `health` to `policy` if it consults one (policies come from
// MakePolicy by name, so callers cannot know); returns whether it does.
bool AttachHostHealth(Policy& policy, const HostHealth* health);

// FTMET: the host with the smallest execution (plus transfer) time among
// those passing the check. Ties go to the lowest host index.
std::unique_ptr<Policy> MakeFtMetPolicy();
// FTMCT: the host with the smallest completion time (backlog + transfer +
// execution) among those passing the check. Ties go to the lowest index.
std::unique_ptr<Policy> MakeFtMctPolicy();

}  // namespace gs

#endif  // GSRT_RUNTIME_SCHED_POLICIES_FT_H_
