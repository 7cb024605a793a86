// Rewinding on the DAG shapes paper 000 uses (Kasahara STG, 50 tasks): each
// graph is list-scheduled on a few hosts, one host fails at mid-makespan (as
// in the paper's TE2 scenarios) and both modes must produce plans with all
// the properties, GTP/c/r rewinding a subset of GTP/r.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <string>

#include "runtime/graph/rewind.h"
#include "runtime/graph/rewind_test_util.h"
#include "sim/instances/stg_graph.h"

#ifndef GSRT_SIM_DATA
#error "GSRT_SIM_DATA must name the data directory, sim/data (CMake sets it)"
#endif

namespace gs {
namespace {

using testing::RewindGraph;
using testing::State;

constexpr HostId kMasterHost = 0;

// The state at time `now` of a greedy list schedule of `stg` (tasks in id
// order, each on a random host, starting when its host is free and its
// predecessors are done). Dummy entry: done on the master; dummy exit:
// pending, the sink the paper's rule needs. One output version per task,
// read by all its successors; kept on the producer's host, and in GTP/c
// style also on the hosts of readers that received it (with `keep_copies`).
RewindGraph Situate(const StgGraph& stg, HostId num_hosts, double at,
                    bool keep_copies, std::mt19937& rng) {
  const size_t n = stg.tasks.size();
  std::vector<HostId> host(n, kMasterHost);
  std::vector<double> start(n, 0), finish(n, 0), host_free(num_hosts + 1, 0);
  for (uint32_t id = 1; id + 1 < n; ++id) {
    host[id] = 1 + rng() % num_hosts;
    double ready = host_free[host[id]];
    for (uint32_t p : stg.tasks[id].preds) ready = std::max(ready, finish[p]);
    start[id] = ready;
    // Heterogeneous hosts: a seeded factor per task and host, as the paper
    // adds random W to the STG shapes.
    double factor = 0.5 + (rng() % 100) / 100.0;
    finish[id] = ready + stg.tasks[id].processing_time * factor;
    host_free[host[id]] = finish[id];
  }
  double makespan = *std::max_element(finish.begin(), finish.end());
  double now = makespan * at;

  RewindGraph g;
  std::vector<uint32_t> out(n);
  for (uint32_t id = 0; id < n; ++id) {
    State state = State::kPending;
    HostId h = RewindTask::kUnplaced;
    if (id == 0) {
      state = State::kDone;
      h = kMasterHost;
    } else if (id + 1 < n && start[id] <= now) {
      state = finish[id] <= now ? State::kDone : State::kRunning;
      h = host[id];
    }
    std::vector<uint32_t> inputs;
    for (uint32_t p : stg.tasks[id].preds) inputs.push_back(out[p]);
    g.Task(state, h, inputs);
    out[id] = g.Output(id, {});
    if (state == State::kDone) g.versions[out[id]].copies.push_back(h);
    if (state != State::kPending && keep_copies) {
      for (uint32_t v : inputs) {
        if (!testing::HasCopy(g.versions[v], h)) {
          g.versions[v].copies.push_back(h);
        }
      }
    }
  }
  return g;
}

TEST(RewindStgTest, MidRunFailureOnEveryStgShape) {
  const std::string dir = std::string(GSRT_SIM_DATA) + "/stg/50";
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    if (e.path().extension() == ".stg") files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty())
      << "no .stg files in " << dir << " (GSRT_SIM_DATA, set in "
      << "sim/CMakeLists.txt): restore sim/data from git";

  std::mt19937 rng(2137);
  uint64_t rt_r = 0, rt_cr = 0, rt_r_nocopies = 0;
  for (const std::string& path : files) {
    StatusOr<StgGraph> stg = LoadStgFile(path);
    ASSERT_TRUE(stg.ok()) << stg.status().ToString();
    for (bool keep_copies : {false, true}) {
      const HostId hosts = 5;
      RewindGraph g = Situate(*stg, hosts, 0.5, keep_copies, rng);
      HostId lost = 1 + rng() % hosts;
      std::string where = path + (keep_copies ? " with copies" : "") +
                          ", host " + std::to_string(lost) + " lost";
      StatusOr<RewindPlan> r =
          PlanRewind(g.tasks, g.versions, lost, RewindMode::kGtpR);
      StatusOr<RewindPlan> cr =
          PlanRewind(g.tasks, g.versions, lost, RewindMode::kGtpCR);
      ASSERT_TRUE(r.ok()) << where << ": " << r.status().ToString();
      ASSERT_TRUE(cr.ok()) << where << ": " << cr.status().ToString();
      testing::ExpectPlanProperties(g, lost, RewindMode::kGtpR, *r,
                                    where + " GTP/r");
      testing::ExpectPlanProperties(g, lost, RewindMode::kGtpCR, *cr,
                                    where + " GTP/c/r");
      for (uint32_t t : cr->rewound) {
        EXPECT_TRUE(testing::Contains(r->rewound, t)) << where << " task " << t;
      }
      if (!keep_copies) {
        // Results live only where they were computed: the modes agree.
        EXPECT_EQ(cr->rewound, r->rewound) << where;
        rt_r_nocopies += r->rt;
      } else {
        rt_r += r->rt;
        rt_cr += cr->rt;
      }
      if (HasFailure()) return;
    }
  }
  // A mid-run failure does rewind work, and copies save some of it.
  EXPECT_GT(rt_r_nocopies, files.size());
  EXPECT_LT(rt_cr, rt_r);
}

}  // namespace
}  // namespace gs
