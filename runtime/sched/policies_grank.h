// grank (paper 004 section 2) as a scheduling policy: for each task the
// usable hosts are ranked as gsdeploy ranks them
// (runtime/sched/host_ranking.h's RankHosts): reliability (availability,
// distrust, from the history) and predicted time Time = mu*ET + gamma*FTT +
// delta, combined as grank = alpha*rrank + beta*prank; the task goes to the
// best-ranked host. The choice is RankHosts' first host (same ranks, same
// tie-breaks), found in O(H log C) per task for C reliability classes instead
// of RankHosts' O(H^2): the reliability ranks do not change within a round
// (Take moves no host's fit or counts), so they are sorted once per round and
// need; per task, only the best host of each class is ranked against all times.
#ifndef GSRT_RUNTIME_SCHED_POLICIES_GRANK_H_
#define GSRT_RUNTIME_SCHED_POLICIES_GRANK_H_

#include <memory>
#include <span>
#include <tuple>
#include <vector>

#include "runtime/sched/finish_index.h"
#include "runtime/sched/host_ranking.h"
#include "runtime/sched/scheduler.h"

namespace gs {

class GrankPolicy : public Policy {
 public:
  // With one reliability class the index replays the previous round's
  // answers (FinishIndex::FindLeastTime).
  explicit GrankPolicy(RankOptions options) : options_(options) {
    index_.EnableReplay();
  }
  std::string_view name() const override { return "grank"; }

  Needs needs() const override { return {.reliability = true}; }
  // Accumulated reliability counts of each host, by host index (attempts,
  // not_answered, distrust; the other fields are filled per task). Hosts
  // without an entry count as fully available and trusted.
  void SetReliability(std::vector<HostFacts> hosts) override {
    reliability_ = std::move(hosts);
    round_.clear();
    forget_ = true;
  }

  // ET from the predictor, FTT from its transfer time (as the latency term:
  // it already includes the volume), delta the host's backlog: how long
  // until it has a free slot.
  Choice Choose(const ReadyTask& task, const SlotBoard& board,
                const Predictor& predictor) override;

 protected:
  // The reliability ranks and a FinishIndex are kept for the round.
  void BeginRound(const SlotBoard& board, const Predictor& predictor) override;
  void Took(HostId host) override { index_.Moved(host); }
  void EndRound() override;

 private:
  // The hosts a task with `need` may be ranked on (fitting, eligible for
  // RankHosts), with their rrank, in host order.
  struct Eligible {
    Need need;
    std::vector<HostId> hosts;
    std::vector<int> rrank;
    std::vector<bool> allowed;  // by host: in `hosts`
    bool one_class = false;     // every host in `hosts` equally reliable
  };
  void FillEligible(const SlotBoard& board, Eligible* e);
  const Eligible& EligibleFor(const SlotBoard& board, const Need& need);
  const HostFacts& FactsOf(HostId h) const;

  RankOptions options_;
  std::vector<HostFacts> reliability_;
  bool in_round_ = false;
  // With one reliability class and times of work / speed, the best host is
  // the one with the least Time: found without ranking every host.
  FinishIndex index_;
  // By need. Kept between rounds while every host's fit (cores, memory)
  // and the reliability stay the same: a round follows every job's end.
  std::vector<Eligible> round_;
  // round_ was cleared since the last round: the index's log assumed other
  // allowed hosts.
  bool forget_ = false;
  // Each host's slots (0: not usable) and memory at the last BeginRound.
  std::vector<std::tuple<uint32_t, double, int>> fits_, new_fits_;
  Eligible scratch_;  // outside a round
  // Each host's place when hosts are ordered by name.
  std::vector<uint32_t> name_rank_;
  // Per task, reused: times of the eligible hosts (by their index in
  // Eligible::hosts), the best of each reliability class, the candidates
  // by Time, and how many hosts are slower than each.
  std::vector<Seconds> times_;
  std::vector<uint32_t> class_best_;
  std::vector<uint32_t> candidates_;
  std::vector<Seconds> candidate_times_;
  std::vector<int> slower_;
};

std::unique_ptr<Policy> MakeGrankPolicy(RankOptions options = {});

}  // namespace gs

#endif  // GSRT_RUNTIME_SCHED_POLICIES_GRANK_H_
