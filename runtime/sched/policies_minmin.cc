#include "runtime/sched/policies_minmin.h"

#include <algorithm>
#include <limits>

#include "runtime/sched/finish_index.h"
#include "runtime/sched/minmin_order.h"

namespace gs {
namespace {

using Best = FinishIndex::Best;

// Min-Min's steps over `tasks` (appended to `steps`), lazily. The tasks
// come from `order` by a lower bound of their least completion that grows
// along the walk: -inf for a task without a known work, else LeastEnd of
// its work (the least earliest slot + work / speed over all hosts; its
// O(1) under-estimate QuickBoundOf first), so the bound of the walk's next
// task bounds every task not yet looked at. Looked-at tasks wait in a heap
// by their completion found, valid while its host was not taken since
// (taking slots of h only delays h, so a completion on another host still
// holds). The next task is looked at while its bound is at most the heap's
// least completion; otherwise that completion is the step's pick, or is
// found again if its host was taken. The pick is the least completion,
// ties to the earlier task, as the full rescan chose; only the tasks near
// the front of the walk are looked at. False when the walk broke (`tasks`
// is not the queue `order` was kept for).
bool MapInOrder(std::span<const ReadyTask> tasks, MinMinOrder& order,
                SlotBoard& board, FinishIndex& index, bool only_while_free,
                std::vector<MinMinStep>* steps) {
  struct Found {
    Seconds end;
    uint32_t task;
    HostId host;
    bool free;
    uint32_t stamp;  // taken[host] when found
    Seconds work;    // the op's (-1: not known)
  };
  auto after = [](const Found& a, const Found& b) {
    return a.end != b.end ? a.end > b.end : a.task > b.task;
  };
  std::vector<Found> heap;
  std::vector<uint32_t> taken(board.num_hosts());  // Take calls per host
  auto find = [&](uint32_t i, Seconds work) {
    // Another task looked at before this one's Take: the index's step is
    // not followed by its Take.
    if (!heap.empty()) index.Unfollowed();
    const Best b = index.FindOfWork(tasks[i], /*prefer_free=*/false, work);
    if (b.host == kNoHost) return;  // fits no usable host
    heap.push_back({b.end, i, b.host, b.free, taken[b.host], work});
    std::push_heap(heap.begin(), heap.end(), after);
  };
  bool has_next = false, walked = false, bound_known = false;
  uint32_t next = 0;
  Seconds next_work = -1, next_bound = 0;
  while (!only_while_free || board.total_free() > 0) {
    if (!has_next && !walked) {
      switch (order.Walk(&next, &next_work)) {
        case MinMinOrder::Next::kTask:
          has_next = true;
          bound_known = false;
          break;
        case MinMinOrder::Next::kEnd:
          walked = true;
          break;
        case MinMinOrder::Next::kBroken:
          return false;
      }
    }
    if (!has_next && heap.empty()) break;
    bool look = has_next;
    if (has_next && !heap.empty() && next_work >= 0) {
      // Bounds before completions of the same value (the bound's task may
      // end there and be earlier in the queue).
      const Seconds least = heap.front().end;
      if (!bound_known && index.QuickBoundOf(next_work) > least) {
        look = false;
      } else {
        if (!bound_known) next_bound = index.LeastEnd(next_work);
        bound_known = true;
        look = next_bound <= least;
      }
    }
    if (look) {
      find(next, next_work);
      has_next = false;
      continue;
    }
    std::pop_heap(heap.begin(), heap.end(), after);
    const Found f = heap.back();
    heap.pop_back();
    if (taken[f.host] != f.stamp) {
      index.Unfollowed();
      find(f.task, f.work);
      continue;
    }
    const ReadyTask& task = tasks[f.task];
    steps->push_back(
        {f.task, f.host, f.end, board.FreeNowFor(f.host, task.need)});
    board.Take(f.host, task.need, f.end);
    index.Moved(f.host);
    ++taken[f.host];
  }
  return true;
}

class MinMinPolicy : public Policy {
 public:
  // Rounds walk the queue in the same order and take each step's host
  // right after finding it: the index may replay the last round.
  MinMinPolicy() { index_.EnableReplay(); }
  std::string_view name() const override { return "min-min"; }

  Choice Choose(const ReadyTask& task, const SlotBoard& board,
                const Predictor& predictor) override {
    Best b = FinishIndex(board, predictor).Find(task, /*prefer_free=*/false);
    return {b.host, b.end};
  }

  void Place(std::span<const ReadyTask> ready, const SchedulingInput& in,
             std::vector<Placement>* out) override {
    steps_.clear();
    bool kept;
    {
      SlotBoard board(in);
      index_.Build(board, *in.predictor);
      order_.Update(ready, *in.predictor);
      kept = MapInOrder(ready, order_, board, index_, /*only_while_free=*/true,
                        &steps_);
      index_.EndRound();
    }
    if (!kept) {
      // Not the queue the order was kept for: sorted afresh and mapped on
      // a fresh board, replaying nothing.
      steps_.clear();
      order_.Forget();
      SlotBoard board(in);
      index_.ForgetRounds();
      index_.Build(board, *in.predictor);
      order_.Update(ready, *in.predictor);
      MapInOrder(ready, order_, board, index_, true, &steps_);
      index_.EndRound();
    }
    for (const MinMinStep& s : steps_) {
      if (!s.starts_now) continue;
      out->push_back({ready[s.task_index].id, s.host, s.end,
                      static_cast<uint32_t>(s.task_index)});
      order_.Placed(static_cast<uint32_t>(s.task_index));
    }
  }

 private:
  FinishIndex index_;
  MinMinOrder order_;
  std::vector<MinMinStep> steps_;
};

}  // namespace

std::vector<MinMinStep> MinMinMap(std::span<const ReadyTask> tasks,
                                  SlotBoard& board, const Predictor& predictor,
                                  bool only_while_free) {
  FinishIndex index(board, predictor);
  MinMinOrder order;  // sorted: its walk does not break
  order.Update(tasks, predictor);
  std::vector<MinMinStep> steps;
  MapInOrder(tasks, order, board, index, only_while_free, &steps);
  return steps;
}

std::unique_ptr<Policy> MakeMinMinPolicy() {
  return std::make_unique<MinMinPolicy>();
}

}  // namespace gs
