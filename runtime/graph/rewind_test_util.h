// Test support for rewinding: a builder for small graphs and a checker of the
// properties every rewind plan must have. Header-only, tests only.
#ifndef GSRT_RUNTIME_GRAPH_REWIND_TEST_UTIL_H_
#define GSRT_RUNTIME_GRAPH_REWIND_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/graph/rewind.h"

namespace gs::testing {

using State = RewindTask::State;

struct RewindGraph {
  std::vector<RewindTask> tasks;
  std::vector<RewindVersion> versions;

  // A version written by the master, held by `copies`.
  uint32_t MasterVersion(std::vector<HostId> copies) {
    versions.push_back({RewindVersion::kMaster, std::move(copies)});
    return static_cast<uint32_t>(versions.size() - 1);
  }
  uint32_t Task(State state, HostId host, std::vector<uint32_t> inputs) {
    RewindTask t;
    t.state = state;
    t.host = host;
    t.inputs = std::move(inputs);
    tasks.push_back(std::move(t));
    return static_cast<uint32_t>(tasks.size() - 1);
  }
  // A new output of `task`, held by `copies`.
  uint32_t Output(uint32_t task, std::vector<HostId> copies) {
    versions.push_back({task, std::move(copies)});
    uint32_t v = static_cast<uint32_t>(versions.size() - 1);
    tasks[task].outputs.push_back(v);
    return v;
  }
};

inline bool Contains(const std::vector<uint32_t>& xs, uint32_t x) {
  return std::find(xs.begin(), xs.end(), x) != xs.end();
}
inline bool HasCopy(const RewindVersion& v, HostId h) {
  return std::find(v.copies.begin(), v.copies.end(), h) != v.copies.end();
}
inline bool HasCopyOutside(const RewindVersion& v, HostId lost) {
  for (HostId h : v.copies) {
    if (h != lost) return true;
  }
  return false;
}

// reach[a] has bit b when b depends on a, directly or not (up to 64 tasks
// per word; enough for tests, larger graphs use several words).
inline std::vector<std::vector<uint64_t>> Reachability(const RewindGraph& g) {
  size_t n = g.tasks.size(), words = (n + 63) / 64;
  std::vector<std::vector<uint64_t>> reach(n, std::vector<uint64_t>(words));
  // Tasks are built in a topological order (index order) by every generator.
  for (size_t i = n; i-- > 0;) {
    for (uint32_t v : g.tasks[i].outputs) {
      for (size_t c = 0; c < n; ++c) {
        if (!Contains(g.tasks[c].inputs, v)) continue;
        reach[i][c / 64] |= uint64_t{1} << (c % 64);
        for (size_t w = 0; w < words; ++w) reach[i][w] |= reach[c][w];
      }
    }
  }
  return reach;
}

// The properties of a plan (test names its scenario in `where`):
// - closure: every task that runs afterwards can get each input: it holds
//   it, a surviving copy is usable in `mode`, its producer is rewound or not
//   finished, or the version is reported unrecoverable;
// - only running-on-lost-host and finished tasks are rewound, each once, all
//   running-on-lost-host ones are, in reverse topological order;
// - each rewound finished task is necessary (a gone output that a reader has
//   not received);
// - dropped lists exactly the versions held by the lost host; RT adds up.
inline void ExpectPlanProperties(const RewindGraph& g, HostId lost,
                                 RewindMode mode, const RewindPlan& plan,
                                 const std::string& where) {
  SCOPED_TRACE(where);
  const size_t n = g.tasks.size();
  std::vector<int> pos(n, -1);
  for (size_t i = 0; i < plan.rewound.size(); ++i) {
    uint32_t t = plan.rewound[i];
    ASSERT_LT(t, n);
    EXPECT_EQ(pos[t], -1) << "task " << t << " rewound twice";
    pos[t] = static_cast<int>(i);
  }
  auto rewound = [&](uint32_t t) { return pos[t] >= 0; };
  auto gone = [&](uint32_t v) {
    const RewindVersion& ver = g.versions[v];
    if (!HasCopyOutside(ver, lost)) return true;
    return mode == RewindMode::kGtpR &&
           ver.producer != RewindVersion::kMaster &&
           g.tasks[ver.producer].host == lost;
  };
  auto holds = [&](uint32_t c, uint32_t v) {
    const RewindTask& t = g.tasks[c];
    return !rewound(c) && t.state == State::kRunning && t.host != lost &&
           HasCopy(g.versions[v], t.host);
  };

  uint32_t finished = 0, interrupted = 0;
  for (size_t t = 0; t < n; ++t) {
    const RewindTask& task = g.tasks[t];
    bool on_lost_running = task.state == State::kRunning && task.host == lost;
    EXPECT_EQ(on_lost_running && !rewound(t), false)
        << "task " << t << " ran on the lost host but is not rewound";
    if (rewound(t)) {
      EXPECT_TRUE(on_lost_running || task.state == State::kDone)
          << "task " << t << " is rewound but was neither done nor running "
          << "on the lost host";
      if (task.state == State::kDone) ++finished;
      if (on_lost_running) ++interrupted;
    }
    // Necessity of each rewound finished task.
    if (rewound(t) && task.state == State::kDone) {
      bool needed = false;
      for (uint32_t v : task.outputs) {
        if (!gone(v)) continue;
        for (size_t c = 0; c < n; ++c) {
          if (!Contains(g.tasks[c].inputs, static_cast<uint32_t>(v))) continue;
          const RewindTask& r = g.tasks[c];
          if (rewound(c) || r.state == State::kPending ||
              (r.state == State::kRunning && !holds(c, v))) {
            needed = true;
          }
        }
      }
      EXPECT_TRUE(needed) << "task " << t << " is rewound needlessly";
    }
    // Closure.
    bool runs = rewound(t) || task.state == State::kPending ||
                task.state == State::kRunning;
    if (!runs) continue;
    for (uint32_t v : task.inputs) {
      if (holds(t, v) || !gone(v)) continue;
      uint32_t p = g.versions[v].producer;
      if (p == RewindVersion::kMaster) {
        EXPECT_TRUE(Contains(plan.unrecoverable, v))
            << "task " << t << " needs master version " << v
            << " which is gone but not reported unrecoverable";
        continue;
      }
      bool will_exist = rewound(p) || g.tasks[p].state == State::kPending ||
                        g.tasks[p].state == State::kRunning;
      EXPECT_TRUE(will_exist)
          << "task " << t << " needs version " << v << " of task " << p
          << ", which is gone and will not be recomputed";
    }
  }
  EXPECT_EQ(plan.rt, plan.rewound.size());
  EXPECT_EQ(plan.rt_finished, finished);
  EXPECT_EQ(plan.rt_interrupted, interrupted);
  EXPECT_EQ(plan.rt, plan.rt_finished + plan.rt_interrupted);
  EXPECT_EQ(plan.lr == 0, plan.rt == 0);

  // Reverse topological order among rewound tasks.
  auto reach = Reachability(g);
  for (uint32_t a : plan.rewound) {
    for (uint32_t b : plan.rewound) {
      if (reach[a][b / 64] >> (b % 64) & 1) {
        EXPECT_LT(pos[b], pos[a])
            << "task " << b << " depends on " << a << " so must come first";
      }
    }
  }

  std::vector<uint32_t> dropped;
  for (size_t v = 0; v < g.versions.size(); ++v) {
    if (HasCopy(g.versions[v], lost)) dropped.push_back(v);
  }
  EXPECT_EQ(plan.dropped, dropped);
}

}  // namespace gs::testing

#endif  // GSRT_RUNTIME_GRAPH_REWIND_TEST_UTIL_H_
