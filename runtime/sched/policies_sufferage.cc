#include "runtime/sched/policies_sufferage.h"

#include <limits>

namespace gs {
namespace {

constexpr Seconds kInf = std::numeric_limits<Seconds>::infinity();

struct TwoBest {
  HostId host = kNoHost;
  Seconds end = kInf;
  Seconds second = kInf;  // the second-best end, on another host
  HostId second_host = kNoHost;
};

TwoBest BestTwo(const ReadyTask& task, const SlotBoard& board,
                const Predictor& predictor) {
  TwoBest b;
  for (HostId h = 0; h < board.num_hosts(); ++h) {
    if (!board.Fits(h, task.need)) continue;
    Seconds end = board.EarliestFor(h, task.need) +
                  predictor.ExecTime(task.op, h) +
                  predictor.TransferTime(task.id, h);
    if (end < b.end) {
      b = {h, end, b.end, b.host};
    } else if (end < b.second) {
      b.second = end;
      b.second_host = h;
    }
  }
  return b;
}

class SufferagePolicy : public Policy {
 public:
  std::string_view name() const override { return "sufferage"; }

  Choice Choose(const ReadyTask& task, const SlotBoard& board,
                const Predictor& predictor) override {
    TwoBest b = BestTwo(task, board, predictor);
    return {b.host, b.end};
  }

  void Place(std::span<const ReadyTask> ready, const SchedulingInput& in,
             std::vector<Placement>* out) override {
    SlotBoard board(in);
    for (const MinMinStep& s :
         SufferageMap(ready, board, *in.predictor, /*only_while_free=*/true)) {
      if (s.starts_now) out->push_back({ready[s.task_index].id, s.host, s.end});
    }
  }
};

}  // namespace

std::vector<MinMinStep> SufferageMap(std::span<const ReadyTask> tasks,
                                     SlotBoard& board,
                                     const Predictor& predictor,
                                     bool only_while_free) {
  // As in MinMinMap, taking a slot of h only delays h: only the tasks whose
  // best or second-best host is h need a new look (for the others h stays
  // behind both).
  std::vector<TwoBest> best(tasks.size());
  std::vector<bool> mapped(tasks.size(), false);
  for (size_t i = 0; i < tasks.size(); ++i)
    best[i] = BestTwo(tasks[i], board, predictor);
  std::vector<MinMinStep> steps;
  steps.reserve(tasks.size());
  while (steps.size() < tasks.size()) {
    if (only_while_free && board.total_free() == 0) break;
    size_t pick = tasks.size();
    Seconds pick_suffer = -1;
    for (size_t i = 0; i < tasks.size(); ++i) {
      if (mapped[i] || best[i].host == kNoHost) continue;
      Seconds suffer = best[i].second - best[i].end;  // inf: one host only
      if (pick == tasks.size() || suffer > pick_suffer) {
        pick = i;
        pick_suffer = suffer;
      }
    }
    if (pick == tasks.size()) break;  // no usable host at all
    HostId h = best[pick].host;
    const Need& need = tasks[pick].need;
    steps.push_back({pick, h, best[pick].end, board.FreeNowFor(h, need)});
    board.Take(h, need, best[pick].end);
    mapped[pick] = true;
    for (size_t i = 0; i < tasks.size(); ++i) {
      if (!mapped[i] && (best[i].host == h || best[i].second_host == h))
        best[i] = BestTwo(tasks[i], board, predictor);
    }
  }
  return steps;
}

std::unique_ptr<Policy> MakeSufferagePolicy() {
  return std::make_unique<SufferagePolicy>();
}

}  // namespace gs
