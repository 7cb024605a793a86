#include "runtime/sched/policies_minmin.h"

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
  // Each task's best host is cached. Taking slots or memory of host h only
  // delays h (no start there moves earlier), so only the tasks whose best
  // was h need a new look: O(tasks * hosts) per step at worst, usually far
  // less, instead of always rescanning every pair.
  // The best host of each task comes from a FinishIndex (no scan of every
  // host when times are work / speed).
  FinishIndex index(board, predictor);
  std::vector<Best> best(tasks.size());
  std::vector<bool> mapped(tasks.size(), false);
  for (size_t i = 0; i < tasks.size(); ++i) {
    best[i] = index.Find(tasks[i], /*prefer_free=*/false);
  }
  std::vector<MinMinStep> steps;
  steps.reserve(tasks.size());
  while (steps.size() < tasks.size()) {
    if (only_while_free && board.total_free() == 0) break;
    size_t pick = tasks.size();
    for (size_t i = 0; i < tasks.size(); ++i) {
      if (mapped[i] || best[i].host == kNoHost) continue;
      if (pick == tasks.size() || best[i].end < best[pick].end) pick = i;
    }
    if (pick == tasks.size()) break;  // no usable host fits what is left
    HostId h = best[pick].host;
    steps.push_back(
        {pick, h, best[pick].end, board.FreeNowFor(h, tasks[pick].need)});
    board.Take(h, tasks[pick].need, best[pick].end);
    index.Moved(h);
    mapped[pick] = true;
    for (size_t i = 0; i < tasks.size(); ++i) {
      if (!mapped[i] && best[i].host == h) {
        best[i] = index.Find(tasks[i], /*prefer_free=*/false);
      }
    }
  }
  return steps;
}

std::unique_ptr<Policy> MakeMinMinPolicy() {
  return std::make_unique<MinMinPolicy>();
}

}  // namespace gs
