#include "runtime/sched/gtp_plan.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace gs {

namespace {

constexpr Seconds kNever = std::numeric_limits<Seconds>::infinity();

bool Finished(const GtpTask& t) { return t.computed >= 1; }

}  // namespace

std::vector<size_t> GtpLevels(size_t tasks, const std::vector<GtpEdge>& edges) {
  std::vector<std::vector<size_t>> succ(tasks);
  std::vector<size_t> preds(tasks, 0), level(tasks, 0), queue;
  for (const GtpEdge& e : edges) succ[e.from].push_back(e.to), ++preds[e.to];
  for (size_t v = 0; v < tasks; ++v)
    if (preds[v] == 0) queue.push_back(v);
  for (size_t head = 0; head < queue.size(); ++head) {
    size_t v = queue[head];
    for (size_t s : succ[v]) {
      level[s] = std::max(level[s], level[v] + 1);
      if (--preds[s] == 0) queue.push_back(s);
    }
  }
  return level;
}

GtpPlan PlanGtp(const GtpInput& in) {
  const size_t n = in.tasks.size(), procs = in.avail.size();
  GtpPlan plan;
  plan.processor.assign(n, kGtpNone);
  plan.start.assign(n, 0);
  plan.end.assign(n, 0);
  plan.migrated.assign(n, false);
  std::vector<std::vector<size_t>> in_edges(n);
  for (size_t e = 0; e < in.edges.size(); ++e)
    in_edges[in.edges[e].to].push_back(e);
  std::vector<Seconds> ready(procs, in.now);
  for (size_t m = 0; m < procs && m < in.busy_until.size(); ++m)
    ready[m] = std::max(ready[m], in.busy_until[m]);
  for (size_t v = 0; v < n; ++v) {
    const GtpTask& t = in.tasks[v];
    if (!Finished(t)) {
      plan.order.push_back(v);
      continue;
    }
    plan.processor[v] = t.placed;
    plan.start[v] = plan.end[v] = t.finished_at;
  }
  // Tasks already computing hold their processor now, so they come first;
  // then by Level, so every producer is mapped before its consumers.
  const std::vector<size_t> level = GtpLevels(n, in.edges);
  // Within a level, the task with the longest work still below it first.
  std::vector<Seconds> below(n, 0);
  {
    std::vector<size_t> by_level(n);
    std::iota(by_level.begin(), by_level.end(), size_t{0});
    std::sort(by_level.begin(), by_level.end(),
              [&](size_t a, size_t b) { return level[a] > level[b]; });
    std::vector<std::vector<size_t>> succ(n);
    for (const GtpEdge& e : in.edges) succ[e.from].push_back(e.to);
    for (size_t v : by_level) {
      Seconds mean = 0;
      for (Seconds w : in.tasks[v].w) mean += w;
      mean /= std::max<size_t>(1, in.tasks[v].w.size());
      Seconds next = 0;
      for (size_t s : succ[v]) next = std::max(next, below[s]);
      below[v] = mean + next;
    }
  }
  std::stable_sort(plan.order.begin(), plan.order.end(),
                   [&](size_t a, size_t b) {
                     bool ra = in.tasks[a].computed > 0;
                     bool rb = in.tasks[b].computed > 0;
                     if (ra != rb) return ra;
                     if (level[a] != level[b]) return level[a] < level[b];
                     return below[a] > below[b];
                   });
  auto transfer = [&](size_t ei, size_t src, size_t m, double done) {
    const GtpEdge& e = in.edges[ei];
    if (src == m || done >= 1) return Seconds{0};
    if (in.transfer) return in.transfer(e, src, m, 1 - done);
    if (e.data <= 0) return Seconds{0};
    double bw = src < in.bandwidth.size() && m < in.bandwidth[src].size()
                    ? in.bandwidth[src][m]
                    : 0;
    return bw > 0 ? e.data * (1 - done) / bw : kNever;
  };
  for (size_t v : plan.order) {
    const GtpTask& t = in.tasks[v];
    size_t best = kGtpNone;
    Seconds best_start = 0, best_end = kNever;
    for (size_t m = 0; m < procs; ++m) {
      if (!(in.avail[m] > 0)) continue;
      const bool stays = t.placed == m;
      Seconds inputs = in.now;
      for (size_t ei : in_edges[v]) {
        const GtpEdge& e = in.edges[ei];
        const size_t k = e.from;
        const bool done = Finished(in.tasks[k]);
        Seconds after = std::max(done ? in.now : plan.end[k], in.now);
        Seconds arrive = kNever;
        auto consider = [&](size_t src) {
          // kGtpNone is no source; a failed processor's copy is lost.
          if (src != kGtpMaster && (src >= procs || !(in.avail[src] > 0)))
            return;
          arrive = std::min(arrive,
                            after + transfer(ei, src, m, stays ? e.done : 0));
        };
        consider(plan.processor[k]);
        if (done)
          for (size_t c : e.copies) consider(c);
        inputs = std::max(inputs, arrive);
      }
      const Seconds start = std::max(ready[m], inputs);
      const Seconds end =
          start + t.w[m] / in.avail[m] * (stays ? 1 - t.computed : 1);
      // A placed task moves only when that finishes it strictly earlier.
      const bool better =
          end < best_end || (end == best_end && stays && best != t.placed);
      if (better) best = m, best_start = start, best_end = end;
    }
    if (best == kGtpNone) continue;
    plan.processor[v] = best;
    plan.start[v] = best_start;
    plan.end[v] = best_end;
    plan.migrated[v] = t.placed != kGtpNone && t.placed != best;
    ready[best] = best_end;
    plan.makespan = std::max(plan.makespan, best_end);
  }
  for (size_t v = 0; v < n; ++v)
    if (Finished(in.tasks[v]))
      plan.makespan = std::max(plan.makespan, plan.end[v]);
  return plan;
}

}  // namespace gs
