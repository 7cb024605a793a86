// The host where a task would finish first on a SlotBoard (MCT's and
// Min-Min's inner question), found without looking at every host when the
// predictor knows its execution times are work / speed (Predictor::speeds).
//
// The end on host h is EarliestFor(h) + Work/speed(h) + TransferTime: no
// simple minimum over the hosts' free times. Hosts are grouped by speed
// (fastest first, ~sqrt(H) per group), and each group keeps its hosts in
// order of their earliest free slot. For a task of work w, the end on any
// host of a group is at least (its earliest) + w / (the group's fastest
// speed) (computed a little low, as a product), since EarliestFor is never
// before the earliest slot, a transfer is never negative and rounding is
// monotonic. Groups are visited by that bound, hosts within a group by their
// own, and the search stops when the bound exceeds the best end found: with a
// few free hosts among busy ones, a task looks at tens of hosts instead of all
// of them. Without a speed model every host is looked at, as before. Either way
// the answer is the full scan's: the same host on equal ends (tie rules below).
#ifndef GSRT_RUNTIME_SCHED_FINISH_INDEX_H_
#define GSRT_RUNTIME_SCHED_FINISH_INDEX_H_

#include <limits>
#include <span>
#include <vector>

#include "runtime/sched/scheduler.h"

namespace gs {

class FinishIndex {
 public:
  FinishIndex() = default;
  // `board` and `predictor` must outlive the index (or the next Build).
  FinishIndex(const SlotBoard& board, const Predictor& predictor) {
    Build(board, predictor);
  }
  // Indexes `board`. An index built before on the same hosts and speeds
  // (the previous round: a policy keeps one) keeps its groups and re-sorts
  // them from their last order, which few hosts have left since: a round
  // costs O(H), not O(H log H), and allocates nothing.
  void Build(const SlotBoard& board, const Predictor& predictor);

  struct Best {
    HostId host = kNoHost;
    Seconds end = std::numeric_limits<Seconds>::infinity();
    bool free = false;  // the task could start there now
  };
  // The host that fits `task` where it ends first (end = EarliestFor +
  // ExecTime + TransferTime, computed as the policies always did). Among
  // equal ends: a host free now first when `prefer_free` (MCT), then the
  // lowest index. kNoHost when no usable host fits.
  Best Find(const ReadyTask& task, bool prefer_free);

  // grank's question when all hosts are equally reliable: the host that
  // fits `task`, with allowed[h], where Time = mu * ET + gamma * FTT +
  // max(0, EarliestFor - now) is least (`end` holds that Time), computed
  // as GrankPolicy computes it; among equal Times the least tie_order[h].
  // Empty (kNoHost) when there is no speed model for the task or a weight
  // is negative: the caller ranks every host then.
  Best FindLeastTime(const ReadyTask& task, double mu, double gamma,
                     const std::vector<bool>& allowed,
                     const std::vector<uint32_t>& tie_order);
  bool has_model() const { return model_; }
  // In O(1), a lower bound of Find(task).end: the earliest slot of any host
  // at Build plus the task's work at the greatest speed (slots only get
  // later); -inf without a speed model for the task.
  Seconds QuickBound(const ReadyTask& task) const;

  // To call after board.Take(h, ...): h's earliest slot moved.
  void Moved(HostId h);

 private:
  struct Group {
    uint32_t begin, end;   // its hosts in members_, ordered by earliest
    double inverse_lower;  // just under 1 / (the group's greatest speed)
  };
  Best Scan(const ReadyTask& task, bool prefer_free) const;
  template <typename Cost>
  Best Search(Seconds work, const Cost& cost);
  void GroupBySpeed(std::span<const double> speeds);
  // The earliest slot of h; +inf when h is not usable.
  Seconds EarliestOf(HostId h) const {
    return board_->usable(h) ? board_->earliest(h)
                             : std::numeric_limits<Seconds>::infinity();
  }
  bool Before(HostId a, HostId b) const {  // by earliest, then index
    const Seconds ea = EarliestOf(a), eb = EarliestOf(b);
    return ea != eb ? ea < eb : a < b;
  }

  const SlotBoard* board_ = nullptr;
  const Predictor* predictor_ = nullptr;
  bool model_ = false;
  Seconds least_earliest_ = 0;  // over all hosts, at Build
  double inverse_lower_ = 0;    // just under 1 / (the greatest speed)
  std::vector<double> speeds_;  // what the groups were made from
  std::vector<Group> groups_;
  std::vector<HostId> members_;     // group by group
  std::vector<uint32_t> position_;  // of each host in members_
  std::vector<uint32_t> group_of_;  // of each host
  // Reused per Find: each group's bound and least execution time.
  std::vector<std::pair<Seconds, Seconds>> bounds_;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_SCHED_FINISH_INDEX_H_
