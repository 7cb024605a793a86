// grank (paper 004 section 2) as a scheduling policy: for each task the
// usable hosts are ranked with the same code gsdeploy uses
// (runtime/sched/host_ranking.h): reliability (availability, distrust, from the
// history) and predicted time Time = mu*ET + gamma*FTT + delta, combined as
// grank = alpha*rrank + beta*prank; the task goes to the best-ranked host.
#ifndef GSRT_RUNTIME_SCHED_POLICIES_GRANK_H_
#define GSRT_RUNTIME_SCHED_POLICIES_GRANK_H_

#include <memory>
#include <vector>

#include "runtime/sched/host_ranking.h"
#include "runtime/sched/scheduler.h"

namespace gs {

class GrankPolicy : public Policy {
 public:
  explicit GrankPolicy(RankOptions options) : options_(options) {}
  std::string_view name() const override { return "grank"; }

  Needs needs() const override { return {.reliability = true}; }
  // Accumulated reliability counts of each host, by host index (attempts,
  // not_answered, distrust; the other fields are filled per task). Hosts
  // without an entry count as fully available and trusted.
  void SetReliability(std::vector<HostFacts> hosts) override {
    reliability_ = std::move(hosts);
  }

  // ET from the predictor, FTT from its transfer time (as the latency term:
  // it already includes the volume), delta the host's backlog: how long
  // until it has a free slot.
  Choice Choose(const ReadyTask& task, const SlotBoard& board,
                const Predictor& predictor) override;

 private:
  RankOptions options_;
  std::vector<HostFacts> reliability_;
};

std::unique_ptr<Policy> MakeGrankPolicy(RankOptions options = {});

}  // namespace gs

#endif  // GSRT_RUNTIME_SCHED_POLICIES_GRANK_H_
