// The host where a task would finish first on a SlotBoard (MCT's and
// Min-Min's inner question), found without looking at every host when the
// predictor knows its execution times are work / speed (Predictor::speeds):
// hosts grouped by speed and ordered by earliest slot, searched by a lower
// bound of the end. Without a speed model every host is looked at. Either
// way the answer is the full scan's: the same host on equal ends (tie
// rules at Find). Rounds that repeat (EnableReplay: MCT, grank, Min-Min)
// replay the last round's answers where the hosts and the predictor's
// stamp are as they were. A policy keeps one across its rounds. Why the
// bound holds, the replay's set D and why grank's Time may be replayed:
// docs/design.md, "Scheduling at scale".
#ifndef GSRT_RUNTIME_SCHED_FINISH_INDEX_H_
#define GSRT_RUNTIME_SCHED_FINISH_INDEX_H_

#include <limits>
#include <span>
#include <utility>
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
  // The same, given the Work of the task's op (-1 when not known): a
  // caller that knows it saves the predictor's call.
  Best FindOfWork(const ReadyTask& task, bool prefer_free, Seconds work);

  // grank's question when all hosts are equally reliable: the host that
  // fits `task`, with allowed[h], where Time = mu * ET + gamma * FTT +
  // max(0, EarliestFor - now) is least (`end` holds that Time), computed
  // as GrankPolicy computes it; among equal Times the least tie_order[h].
  // Empty (kNoHost) when there is no speed model for the task or a weight
  // is negative: the caller ranks every host then.
  // With EnableReplay, the previous round's answers are replayed as
  // above: mu, gamma, allowed and tie_order must be those of the previous
  // round, or ForgetRounds called before Build.
  Best FindLeastTime(const ReadyTask& task, double mu, double gamma,
                     const std::vector<bool>& allowed,
                     const std::vector<uint32_t>& tie_order);
  bool has_model() const { return model_; }
  // Min-Min's bound for the tasks not yet looked at: the least of
  // earliest(h) + work / speed(h) over the usable hosts, which no task of
  // that work (or more) can beat on this board, whatever its need or
  // transfers; -inf without a speed model. With replay, between a Find and
  // its Take, it is the last round's value at the same step, checked
  // against the hosts of D, when the host that gave it is not in D.
  Seconds LeastEnd(Seconds work);
  // The last Find's Take will not follow it before another Find (Min-Min
  // looks further): that step is not logged, and the replay ends for the
  // round.
  void Unfollowed();
  // In O(1), a lower bound of Find(task).end for a task of `work` (Work of
  // its op, known to the caller): the earliest slot of any host at Build
  // plus the work at the greatest speed (slots only get later); -inf
  // without a speed model.
  Seconds QuickBoundOf(Seconds work) const;

  // To call after board.Take(h, ...): h's earliest slot moved.
  void Moved(HostId h);

  // Find may replay the previous round (above). Only for a policy whose
  // round is: for each task in queue order, Find, then Take of the answer
  // with its end; other Takes are told through Moved like any.
  void EnableReplay() { replay_enabled_ = true; }
  // The round's last Take was told: the steps of the last round it did not
  // reach stay in the log behind this round's (their D so far goes with
  // them), so a round that ends early does not cost the next the rest.
  void EndRound();
  // The next Build replays nothing (what the log's answers depended on
  // besides the board and the predictor changed).
  void ForgetRounds() {
    log_.clear();
    carries_.clear();
    begin_.clear();
  }
  // How many Finds were answered from the log (for tests and benchmarks).
  uint64_t replayed() const { return replayed_; }

 private:
  struct Group {
    uint32_t begin, end;   // its hosts in members_, ordered by earliest
    double inverse_lower;  // just under 1 / (the group's greatest speed)
  };
  Best Scan(const ReadyTask& task, bool prefer_free) const;
  // With `lower_other`: also a lower bound of every other host's value
  // (+inf when there is none).
  template <typename Cost>
  Best Search(Seconds work, const Cost& cost, Seconds* lower_other = nullptr);
  void GroupBySpeed(std::span<const double> speeds);
  // Back in order of earliest slot, from a nearly sorted order.
  void SortGroup(const Group& g);
  // h's group is out of order: sorted when a search next reads it.
  void MarkUnsorted(HostId h) {
    const uint32_t g = group_of_[h];
    if (!unsorted_[g]) {
      unsorted_[g] = true;
      unsorted_list_.push_back(g);
    }
  }
  // The earliest slot of h; +inf when h is not usable.
  Seconds EarliestOf(HostId h) const {
    return board_->usable(h) ? board_->earliest(h)
                             : std::numeric_limits<Seconds>::infinity();
  }
  bool Before(HostId a, HostId b) const {  // by earliest, then index
    const Seconds ea = EarliestOf(a), eb = EarliestOf(b);
    return ea != eb ? ea < eb : a < b;
  }

  // One Find of a round, whose Take followed.
  struct Step {
    TaskId task;
    HostId host;
    Seconds end;
    Seconds work;
    bool free;
    bool prefer_free;
    bool least_time;  // FindLeastTime's (end: the Time then)
    // FindLeastTime's: a lower bound of Time + now of every other host.
    Seconds runner_up = 0;
    // LeastEnd(next_work) asked before this step's Take, and its host.
    Seconds next_work = -1, next_end = 0;
    HostId next_host = kNoHost;
    // Hosts to add to D before this step (carries_[carry_begin, carry_end)):
    // where the board may differ from the one the step was made on, when
    // it was made in an earlier round than the steps before it.
    uint32_t carry_begin = 0, carry_end = 0;
    // In log_: how many steps at or below this one are not free.
    uint32_t reserved_below = 0;
  };
  // The last round's step i (counted from its first).
  const Step& OldStep(size_t i) const { return log_[old_count_ - 1 - i]; }
  // carries_ without the carries of steps no longer in the log.
  void CompactCarries();
  void StartRound(bool regrouped);
  // Keeps the board as it was at Build, but for the hosts taken since,
  // which are all hosts of steps_ (told to the next round as changed).
  void KeepBoard();
  // Adds the carries of the old step at the cursor to D, once.
  void Arrive();
  // The last round's step for `task` when it can be replayed (the cursor
  // moves past it), else null and the replay ends for the round.
  const Step* Replayable(const ReadyTask& task, Seconds work, bool prefer_free,
                         bool least_time);
  bool SameAsLastRound();
  // The answer from `old`, whose host is not in D, and the hosts of D.
  template <typename Cost>
  Best Replay(const Step& old, Seconds work, const Cost& cost) const;
  // FindLeastTime's: false when the margin to the runner-up is too thin.
  template <typename Cost>
  bool ReplayLeastTime(const Step& old, Seconds work, const Cost& cost,
                       Best* best, Seconds* runner_up) const;
  void Record(const ReadyTask& task, Seconds work, bool prefer_free,
              const Best& best, const Step* old, bool least_time = false,
              Seconds runner_up = 0);
  void Changed(HostId h) {
    if (!in_d_[h]) {
      in_d_[h] = true;
      d_.push_back(h);
    }
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
  // Groups whose order Moved left to the next Search (with replay).
  std::vector<bool> unsorted_;
  std::vector<uint32_t> unsorted_list_;
  // Each host's earliest slot when its group was last sorted: its group is
  // in order while no host's differs.
  std::vector<Seconds> sorted_by_;
  std::vector<std::pair<Seconds, HostId>> sort_keys_;  // SortGroup's
  // Reused per Find: each group's bound and least execution time.
  std::vector<std::pair<Seconds, Seconds>> bounds_;

  // Replay (EnableReplay): this round's steps and the last round's, the
  // first boards of both (kept only by rounds that reserved: KeepBoard),
  // the predictor's stamp of each (0: not read), where the replay is in the
  // old steps.
  bool replay_enabled_ = false;
  bool logging_ = false;     // the steps of this round so far are complete
  bool replaying_ = false;   // the old steps may still be replayed
  bool found_ = false;       // a Find whose Take has not come yet
  HostId expect_ = kNoHost;  // that Take repeats the old step's
  bool kept_ = false;        // KeepBoard was called this round
  bool first_find_ = false;  // no Find yet this round
  // This round's steps, in order; the log of the rounds before, backwards
  // (during a round it is the old steps: step i at log_[old_count_ - 1 - i]).
  std::vector<Step> steps_, log_;
  size_t old_count_ = 0;
  // The log's carries, by index; steps that left the log leave theirs
  // behind until CompactCarries.
  std::vector<HostId> carries_;
  size_t carries_limit_ = 4096;
  size_t carried_ = 0;  // old steps whose carries were added to D
  std::vector<SlotBoard::Slot> slots_, old_slots_;
  std::vector<uint32_t> begin_, old_begin_;  // empty: not kept
  std::vector<HostId> taken_, old_taken_;    // before KeepBoard
  const Predictor* old_predictor_ = nullptr;
  uint64_t stamp_ = 0, old_stamp_ = 0;
  size_t cursor_ = 0;
  // The last Find's old step (null: none), and whether it was logged.
  const Step* current_old_ = nullptr;
  bool current_logged_ = false;
  std::vector<bool> in_d_;
  std::vector<HostId> d_;
  uint64_t replayed_ = 0;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_SCHED_FINISH_INDEX_H_
