// Min-Min's ready tasks in the order it looks at them: by a lower bound of
// their least completion that grows with their work (FinishIndex::
// LeastEnd), so tasks without a known work (bound -inf) first, then by work,
// then by their place in the queue. MinMinOrder keeps that order between
// rounds (docs/design.md, "Scheduling at scale").
// `ready` must be the Scheduler's queue (runtime/sched/scheduler.h): the
// last round's minus the tasks placed (told by Placed) and minus others
// removed, plus tasks added at its end, a task keeping its op and need. A
// removal not told moves the last task known, which is checked every
// round, and every task handed out is checked against `ready`; a mismatch
// (Next returns kBroken) or another predictor or stamp sorts it afresh.
#ifndef GSRT_RUNTIME_SCHED_MINMIN_ORDER_H_
#define GSRT_RUNTIME_SCHED_MINMIN_ORDER_H_

#include <cstdint>
#include <span>
#include <vector>

#include "runtime/sched/scheduler.h"

namespace gs {

class MinMinOrder {
 public:
  // Brings the order up to `ready`, kept from the last round when the
  // predictor and its non-zero stamp are the same and `ready` is the last
  // queue as above, else sorted afresh. Then the walk starts at the front.
  void Update(std::span<const ReadyTask> ready, const Predictor& predictor);

  enum class Next { kTask, kEnd, kBroken };
  // The next task of the walk: its index in `ready` and its work (-1: not
  // known). kBroken: `ready` is not what the order was kept for (call
  // Forget, then Update again).
  Next Walk(uint32_t* index, Seconds* work);
  // The task at `index` of `ready`, handed out by Walk this round, left
  // the queue (it starts now).
  void Placed(uint32_t index);
  // The next Update sorts afresh.
  void Forget() { predictor_ = nullptr; }

  // How many Updates sorted the queue (for tests).
  uint64_t sorts() const { return sorts_; }

 private:
  struct Entry {
    ReadyTask task;
    Seconds work;  // -1: not known
  };
  void Sort(std::span<const ReadyTask> ready, const Predictor& predictor);
  void Append(std::span<const ReadyTask> added, const Predictor& predictor);
  bool Before(uint32_t a, uint32_t b) const;
  // Tasks removed among slots [0, slot).
  uint32_t RemovedBefore(uint32_t slot) const;
  void MarkRemoved(uint32_t slot);
  uint32_t PlaceOf(uint32_t slot) const { return slot - RemovedBefore(slot); }
  // Whether the queue holds `task` at `place`.
  bool Matches(const ReadyTask& task, uint32_t place) const;

  std::span<const ReadyTask> ready_;
  const Predictor* predictor_ = nullptr;
  uint64_t stamp_ = 0;
  // By slot (a task's place when first seen, then after those before it).
  std::vector<Entry> entries_;
  std::vector<bool> removed_;
  std::vector<uint32_t> fenwick_;  // removed counts, 1-based
  size_t live_ = 0;                // slots not removed
  // Slots by (work, slot), removed ones included until the next sort.
  std::vector<uint32_t> order_;
  size_t front_ = 0;  // order_[0, front_) are all removed
  size_t walk_ = 0;   // the walk's place in order_
  // The queue's length expected next round, and the last slot not removed.
  size_t expected_ = 0;
  uint32_t last_live_ = 0;
  uint64_t sorts_ = 0;
  // This round's walk: (index in ready_, slot).
  std::vector<std::pair<uint32_t, uint32_t>> walked_;
  // Rounds walk nearly the same front of order_: each task walked keeps
  // its place in the queue by its place in order_, and a later walk takes
  // it less the tasks removed before it since (a few compares) instead of
  // a Fenwick sum (about 17 scattered loads), with a copy of its entry
  // read in order. Forgotten when order_ is sorted or merged.
  static constexpr uint32_t kNotWalked = static_cast<uint32_t>(-1);
  struct Walked {
    uint32_t place;
    uint32_t removals;  // removals_.size() then; kNotWalked: never
    Entry entry;        // entries_[order_[at]]
  };
  void ForgetPlaces();
  std::vector<Walked> walked_at_;   // by place in order_
  std::vector<uint32_t> removals_;  // slots removed, in order, since Sort
};

}  // namespace gs

#endif  // GSRT_RUNTIME_SCHED_MINMIN_ORDER_H_
