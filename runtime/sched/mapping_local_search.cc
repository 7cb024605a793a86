#include "runtime/sched/mapping_local_search.h"

#include <algorithm>

namespace gs {

std::vector<Seconds> HostEnds(const LocalSearchInput& in,
                              const std::vector<HostId>& host_of) {
  size_t hosts = in.ready.size();
  std::vector<Seconds> work(hosts, 0);
  for (size_t i = 0; i < host_of.size(); ++i)
    work[host_of[i]] += in.time[i * hosts + host_of[i]];
  std::vector<Seconds> end(hosts, 0);
  for (size_t h = 0; h < hosts; ++h)
    end[h] = in.slots[h] > 0 ? in.ready[h] + work[h] / in.slots[h] : 0;
  return end;
}

size_t ImproveMapping(const LocalSearchInput& in,
                      std::vector<HostId>* host_of) {
  const size_t hosts = in.ready.size();
  const size_t tasks = host_of->size();
  if (hosts < 2 || tasks == 0) return 0;
  std::vector<HostId>& on = *host_of;
  std::vector<Seconds> end = HostEnds(in, on);
  std::vector<std::vector<size_t>> of(hosts);  // tasks of each host
  for (size_t i = 0; i < tasks; ++i) of[on[i]].push_back(i);
  auto t = [&](size_t i, size_t h) { return in.time[i * hosts + h]; };
  auto share = [&](Seconds x, size_t h) { return x / in.slots[h]; };
  const size_t limit = in.max_moves ? in.max_moves : 20 * tasks;
  size_t moves = 0;
  for (; moves < limit; ++moves) {
    size_t top = std::max_element(end.begin(), end.end()) - end.begin();
    const Seconds latest = end[top];
    // The best move found: the larger of the two new ends, lowest wins.
    Seconds best = latest * (1 - 1e-12);
    size_t bi = tasks, bj = tasks, bh = hosts;  // bj == tasks: a move
    for (size_t i : of[top]) {
      const Seconds top_less = end[top] - share(t(i, top), top);
      for (size_t h = 0; h < hosts; ++h) {
        if (h == top || in.slots[h] <= 0) continue;
        Seconds v = std::max(top_less, end[h] + share(t(i, h), h));
        if (v < best) best = v, bi = i, bj = tasks, bh = h;
        for (size_t j : of[h]) {
          Seconds a = top_less + share(t(j, top), top);
          Seconds b = end[h] - share(t(j, h), h) + share(t(i, h), h);
          Seconds w = std::max(a, b);
          if (w < best) best = w, bi = i, bj = j, bh = h;
        }
      }
    }
    if (bi == tasks) break;  // a local optimum
    auto drop = [&](size_t task, size_t h) {
      auto& list = of[h];
      list.erase(std::find(list.begin(), list.end(), task));
      end[h] -= share(t(task, h), h);
    };
    auto add = [&](size_t task, size_t h) {
      of[h].push_back(task);
      end[h] += share(t(task, h), h);
      on[task] = static_cast<HostId>(h);
    };
    drop(bi, top);
    add(bi, bh);
    if (bj != tasks) {
      drop(bj, bh);
      add(bj, top);
    }
  }
  return moves;
}

}  // namespace gs
