#include "runtime/sched/policies_grank.h"

#include <algorithm>
#include <string>

namespace gs {

Policy::Choice GrankPolicy::Choose(const ReadyTask& task,
                                   const SlotBoard& board,
                                   const Predictor& predictor) {
  std::vector<HostFacts> facts;
  std::vector<HostId> ids;
  for (HostId h = 0; h < board.num_hosts(); ++h) {
    if (!board.Fits(h, task.need)) continue;
    HostFacts f;
    if (h < reliability_.size()) f = reliability_[h];
    f.name = std::to_string(h);  // maps the ranking back to the host
    f.et = predictor.ExecTime(task.op, h);
    f.latency = predictor.TransferTime(task.id, h);
    f.bandwidth = 0;  // the transfer time above already counts the volume
    f.queue_wait = std::max(0.0, board.EarliestFor(h, task.need) - board.now());
    facts.push_back(std::move(f));
    ids.push_back(h);
  }
  if (facts.empty()) return {};
  Ranking ranking = RankHosts(facts, options_);
  if (ranking.ranked.empty()) return {};
  HostId best = static_cast<HostId>(std::stoul(ranking.ranked.front().name));
  Seconds end = board.EarliestFor(best, task.need) +
                predictor.ExecTime(task.op, best) +
                predictor.TransferTime(task.id, best);
  return {best, end};
}

std::unique_ptr<Policy> MakeGrankPolicy(RankOptions options) {
  return std::make_unique<GrankPolicy>(options);
}

}  // namespace gs
