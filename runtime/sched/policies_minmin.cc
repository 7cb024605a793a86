#include "runtime/sched/policies_minmin.h"

#include <algorithm>
#include <limits>

#include "runtime/sched/finish_index.h"

namespace gs {
namespace {

using Best = FinishIndex::Best;

class MinMinPolicy : public Policy {
 public:
  std::string_view name() const override { return "min-min"; }

  Choice Choose(const ReadyTask& task, const SlotBoard& board,
                const Predictor& predictor) override {
    Best b = FinishIndex(board, predictor).Find(task, /*prefer_free=*/false);
    return {b.host, b.end};
  }

  void Place(std::span<const ReadyTask> ready, const SchedulingInput& in,
             std::vector<Placement>* out) override {
    SlotBoard board(in);
    for (const MinMinStep& s :
         MinMinMap(ready, board, *in.predictor, /*only_while_free=*/true)) {
      if (s.starts_now) out->push_back({ready[s.task_index].id, s.host, s.end});
    }
  }
};

}  // namespace

std::vector<MinMinStep> MinMinMap(std::span<const ReadyTask> tasks,
                                  SlotBoard& board, const Predictor& predictor,
                                  bool only_while_free) {
  // Lazily: a heap of the tasks keyed by a lower bound of their least
  // completion (FinishIndex::QuickBound: the earliest slot anywhere plus
  // the work at the greatest speed; -inf without a speed model) or by the
  // completion found. A popped bound is replaced by the task's completion;
  // a popped completion is the step's pick if its host was not taken since
  // it was found (taking slots of h only delays h, so a completion on
  // another host still holds). Bounds pop before completions of the same
  // key, and equal completions by task order: the pick is the least
  // completion, ties to the earlier task, as the full rescan chose.
  // Only the tasks near the front of the order are ever looked at.
  FinishIndex index(board, predictor);
  struct Entry {
    Seconds key;
    bool found;  // key is the completion in best[task]
    uint32_t task;
  };
  auto after = [](const Entry& a, const Entry& b) {
    if (a.key != b.key) return a.key > b.key;
    if (a.found != b.found) return a.found;
    return a.task > b.task;
  };
  std::vector<Entry> heap;
  heap.reserve(tasks.size());
  for (uint32_t i = 0; i < tasks.size(); ++i)
    heap.push_back({index.QuickBound(tasks[i]), false, i});
  std::make_heap(heap.begin(), heap.end(), after);
  std::vector<Best> best(tasks.size());
  std::vector<uint32_t> stamp(tasks.size());       // taken_[host] when found
  std::vector<uint32_t> taken(board.num_hosts());  // Take calls per host
  std::vector<MinMinStep> steps;
  while (!heap.empty()) {
    if (only_while_free && board.total_free() == 0) break;
    std::pop_heap(heap.begin(), heap.end(), after);
    const Entry e = heap.back();
    heap.pop_back();
    const uint32_t i = e.task;
    if (!e.found || taken[best[i].host] != stamp[i]) {
      best[i] = index.Find(tasks[i], /*prefer_free=*/false);
      if (best[i].host == kNoHost) continue;  // fits no usable host
      stamp[i] = taken[best[i].host];
      heap.push_back({best[i].end, true, i});
      std::push_heap(heap.begin(), heap.end(), after);
      continue;
    }
    const HostId h = best[i].host;
    steps.push_back({i, h, best[i].end, board.FreeNowFor(h, tasks[i].need)});
    board.Take(h, tasks[i].need, best[i].end);
    index.Moved(h);
    ++taken[h];
  }
  return steps;
}

std::unique_ptr<Policy> MakeMinMinPolicy() {
  return std::make_unique<MinMinPolicy>();
}

}  // namespace gs
