// The scheduler's MCT, Min-Min and grank as they were before they were made
// fast at scale (issue 16): every task scans every host, Min-Min rescans the
// whole list, grank ranks all hosts with RankHosts per task. Only tests
// include this: they check that the fast policies make the same decisions
// (same task to the same host, in the same order) on many small cases.
#ifndef GSRT_RUNTIME_SCHED_REFERENCE_POLICIES_TEST_UTIL_H_
#define GSRT_RUNTIME_SCHED_REFERENCE_POLICIES_TEST_UTIL_H_

#include <algorithm>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "runtime/sched/host_ranking.h"
#include "runtime/sched/scheduler.h"

namespace gs::reference {

class Mct : public Policy {
 public:
  std::string_view name() const override { return "mct"; }
  Choice Choose(const ReadyTask& task, const SlotBoard& board,
                const Predictor& predictor) override {
    Choice best{kNoHost, std::numeric_limits<Seconds>::infinity()};
    bool best_free = false;
    for (HostId h = 0; h < board.num_hosts(); ++h) {
      if (!board.Fits(h, task.need)) continue;
      Seconds end = board.EarliestFor(h, task.need) +
                    predictor.ExecTime(task.op, h) +
                    predictor.TransferTime(task.id, h);
      bool free = board.FreeNowFor(h, task.need);
      if (end < best.end || (end == best.end && free && !best_free)) {
        best = {h, end};
        best_free = free;
      }
    }
    return best;
  }
};

struct Best {
  HostId host = kNoHost;
  Seconds end = std::numeric_limits<Seconds>::infinity();
};

inline Best MinCompletion(const ReadyTask& task, const SlotBoard& board,
                          const Predictor& predictor) {
  Best best;
  for (HostId h = 0; h < board.num_hosts(); ++h) {
    if (!board.Fits(h, task.need)) continue;
    Seconds end = board.EarliestFor(h, task.need) +
                  predictor.ExecTime(task.op, h) +
                  predictor.TransferTime(task.id, h);
    if (end < best.end) best = {h, end};
  }
  return best;
}

struct Step {
  size_t task_index;
  HostId host;
  Seconds end;
  bool starts_now;
};

inline std::vector<Step> MinMinMap(std::span<const ReadyTask> tasks,
                                   SlotBoard& board, const Predictor& predictor,
                                   bool only_while_free) {
  std::vector<Best> best(tasks.size());
  std::vector<bool> mapped(tasks.size(), false);
  for (size_t i = 0; i < tasks.size(); ++i) {
    best[i] = MinCompletion(tasks[i], board, predictor);
  }
  std::vector<Step> steps;
  while (steps.size() < tasks.size()) {
    if (only_while_free && board.total_free() == 0) break;
    size_t pick = tasks.size();
    for (size_t i = 0; i < tasks.size(); ++i) {
      if (mapped[i] || best[i].host == kNoHost) continue;
      if (pick == tasks.size() || best[i].end < best[pick].end) pick = i;
    }
    if (pick == tasks.size()) break;
    HostId h = best[pick].host;
    steps.push_back(
        {pick, h, best[pick].end, board.FreeNowFor(h, tasks[pick].need)});
    board.Take(h, tasks[pick].need, best[pick].end);
    mapped[pick] = true;
    for (size_t i = 0; i < tasks.size(); ++i) {
      if (!mapped[i] && best[i].host == h) {
        best[i] = MinCompletion(tasks[i], board, predictor);
      }
    }
  }
  return steps;
}

class MinMin : public Policy {
 public:
  std::string_view name() const override { return "min-min"; }
  Choice Choose(const ReadyTask& task, const SlotBoard& board,
                const Predictor& predictor) override {
    Best b = MinCompletion(task, board, predictor);
    return {b.host, b.end};
  }
  void Place(std::span<const ReadyTask> ready, const SchedulingInput& in,
             std::vector<Placement>* out) override {
    SlotBoard board(in);
    for (const Step& s :
         reference::MinMinMap(ready, board, *in.predictor, true)) {
      if (s.starts_now) out->push_back({ready[s.task_index].id, s.host, s.end});
    }
  }
};

class Grank : public Policy {
 public:
  explicit Grank(RankOptions options = {}) : options_(options) {}
  std::string_view name() const override { return "grank"; }
  void SetReliability(std::vector<HostFacts> hosts) override {
    reliability_ = std::move(hosts);
  }
  Choice Choose(const ReadyTask& task, const SlotBoard& board,
                const Predictor& predictor) override {
    std::vector<HostFacts> facts;
    for (HostId h = 0; h < board.num_hosts(); ++h) {
      if (!board.Fits(h, task.need)) continue;
      HostFacts f;
      if (h < reliability_.size()) f = reliability_[h];
      f.name = std::to_string(h);
      f.et = predictor.ExecTime(task.op, h);
      f.latency = predictor.TransferTime(task.id, h);
      f.bandwidth = 0;
      f.queue_wait =
          std::max(0.0, board.EarliestFor(h, task.need) - board.now());
      facts.push_back(std::move(f));
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

 private:
  RankOptions options_;
  std::vector<HostFacts> reliability_;
};

}  // namespace gs::reference

#endif  // GSRT_RUNTIME_SCHED_REFERENCE_POLICIES_TEST_UTIL_H_
