// Paper 000's rewinding experiment on the engine in virtual time: a host
// fails mid-run on STG graphs; GTP/c/r must rewind no more than GTP/r, and
// restarting from scratch at least as much as either.
#include <gtest/gtest.h>

#include <string>

#include "sim/experiments/sim_experiments.h"

namespace gs {
namespace {

StgGraph Load(int i) {
  char name[32];
  std::snprintf(name, sizeof name, "/stg/50/rand%04d.stg", i);
  auto g = LoadStgFile(std::string(GSRT_SIM_DATA) + name);
  EXPECT_TRUE(g.ok()) << g.status().message();
  return g.ok() ? *g : StgGraph{};
}

TEST(SimDagTest, GtpCrRewindsNoMoreThanGtpRAndRestartMost) {
  for (size_t hosts : {5u, 20u}) {
    double rt[3] = {0, 0, 0};
    const char* modes[3] = {"gtp-r", "gtp-c-r", "restart"};
    for (int i = 0; i < 6; ++i) {
      StgGraph g = Load(i);
      for (int m = 0; m < 3; ++m) {
        DagOptions o;
        o.hosts = hosts;
        o.rewind = modes[m];
        o.seed = 100 + i;
        auto r = RunDag(g, o);
        ASSERT_TRUE(r.ok()) << r.status().message();
        EXPECT_EQ(r->failed.tasks_done, 50u) << modes[m];
        EXPECT_EQ(r->failed.host_downs, 1u);
        EXPECT_GE(r->nsl, 1.0 - 1e-9);  // never faster than the mean CP
        // Per run, for the same failure: GTP/c/r's plan is a subset.
        rt[m] += r->failed.rt;
      }
    }
    EXPECT_LE(rt[1], rt[0]) << hosts << " hosts";
    EXPECT_GE(rt[2], rt[0]) << hosts << " hosts";
    EXPECT_GT(rt[0], 0) << "no failure hit anything";
  }
}

// GTP (the whole DAG planned at each rescheduling point) through the
// engine: with a host lost mid-run and rewinding, every task still runs
// (a plan naming the lost host, or missing rewound tasks, would strand
// them), and the run is deterministic.
TEST(SimDagTest, GtpRunsEveryTaskWithAHostLost) {
  for (size_t hosts : {5u, 20u}) {
    for (int i = 0; i < 3; ++i) {
      StgGraph g = Load(i);
      DagOptions o;
      o.hosts = hosts;
      o.policy = "gtp";
      o.seed = 100 + i;
      auto r = RunDag(g, o);
      ASSERT_TRUE(r.ok()) << r.status().message();
      EXPECT_EQ(r->base.tasks_done, 50u);
      EXPECT_EQ(r->failed.tasks_done, 50u);
      EXPECT_EQ(r->failed.host_downs, 1u);
      EXPECT_GE(r->nsl, 1.0 - 1e-9);
      auto again = RunDag(g, o);
      ASSERT_TRUE(again.ok());
      EXPECT_EQ(again->failed.makespan, r->failed.makespan);
    }
  }
}

TEST(SimDagTest, RunsAreDeterministic) {
  StgGraph g = Load(7);
  DagOptions o;
  o.rewind = "gtp-r";
  o.seed = 3;
  auto a = RunDag(g, o);
  auto b = RunDag(g, o);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->failed.makespan, b->failed.makespan);
  EXPECT_EQ(a->failed.events, b->failed.events);
  EXPECT_EQ(a->failed.rt, b->failed.rt);
  EXPECT_EQ(a->failed.lr, b->failed.lr);
}

}  // namespace
}  // namespace gs
