#include "runtime/sched/gtp_plan.h"

#include <gtest/gtest.h>

#include <random>

namespace gs {
namespace {

// `procs` processors at full availability, every link at bandwidth `bw`.
GtpInput Grid(size_t procs, double bw) {
  GtpInput in;
  in.avail.assign(procs, 1);
  in.bandwidth.assign(procs, std::vector<double>(procs, bw));
  return in;
}

GtpTask Task(std::vector<Seconds> w) {
  GtpTask t;
  t.w = std::move(w);
  return t;
}

TEST(GtpLevelsTest, LongestPathFromTheEntry) {
  // 0 -> 1 -> 3, 0 -> 3, 2 alone: 3 is two edges deep.
  std::vector<GtpEdge> edges = {{0, 1}, {1, 3}, {0, 3}};
  EXPECT_EQ(GtpLevels(4, edges), (std::vector<size_t>{0, 1, 0, 2}));
}

TEST(GtpPlanTest, EachTaskWhereItFinishesFirstCountingItsInputs) {
  // a is fast on p0, b on p1; b's input takes 2 s to cross: b on p1 ends
  // at 1 + 2 + 1 = 4, on p0 at 1 + 5 = 6.
  GtpInput in = Grid(2, 1);
  in.tasks = {Task({1, 5}), Task({5, 1})};
  in.edges = {{0, 1, 2.0}};
  GtpPlan plan = PlanGtp(in);
  EXPECT_EQ(plan.processor, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(plan.start[1], 3);
  EXPECT_EQ(plan.end[1], 4);
  EXPECT_EQ(plan.makespan, 4);
  // A costlier transfer keeps b with its input: 1 + 5 = 6 < 1 + 6 + 1.
  in.edges[0].data = 6;
  plan = PlanGtp(in);
  EXPECT_EQ(plan.processor[1], 0u);
  EXPECT_EQ(plan.end[1], 6);
}

TEST(GtpPlanTest, AvailabilityScalesTimeAndZeroExcludes) {
  GtpInput in = Grid(3, 1);
  in.avail = {0, 0.5, 1};
  in.tasks = {Task({1, 2, 5})};
  GtpPlan plan = PlanGtp(in);
  EXPECT_EQ(plan.processor[0], 1u);  // 2 / 0.5 = 4 < 5; p0 is down
  EXPECT_EQ(plan.end[0], 4);
  in.avail = {0, 0, 0};
  EXPECT_EQ(PlanGtp(in).processor[0], kGtpNone);
}

TEST(GtpPlanTest, APlacedTaskMigratesOnlyWhenItFinishesEarlier) {
  // Half computed on p0 at t = 10: 5 s left there, 2 s from scratch on p1.
  GtpInput in = Grid(2, 1);
  in.now = 10;
  in.tasks = {Task({10, 2})};
  in.tasks[0].placed = 0;
  in.tasks[0].computed = 0.5;
  GtpPlan plan = PlanGtp(in);
  EXPECT_EQ(plan.processor[0], 1u);
  EXPECT_TRUE(plan.migrated[0]);
  EXPECT_EQ(plan.end[0], 12);
  // 6 s from scratch on p1 is later than 5 s left on p0: it stays; so it
  // does on a tie.
  for (Seconds w1 : {6.0, 5.0}) {
    in.tasks[0].w = {10, w1};
    plan = PlanGtp(in);
    EXPECT_EQ(plan.processor[0], 0u) << w1;
    EXPECT_FALSE(plan.migrated[0]);
    EXPECT_EQ(plan.end[0], 15);
  }
}

TEST(GtpPlanTest, MigratingAGatheringTaskSendsItsInputsAgain) {
  // p's result (10 units) lies on p2, where c is slow (20 s); c is placed
  // on p0 and has half of it. Staying: 5 + 3 s; moving to p1: 10 + 3 s.
  GtpInput in = Grid(3, 1);
  in.tasks = {Task({1, 1, 1}), Task({3, 3, 20})};
  in.tasks[0].placed = 2;
  in.tasks[0].computed = 1;
  in.tasks[1].placed = 0;
  in.edges = {{0, 1, 10.0, 0.5}};
  GtpPlan plan = PlanGtp(in);
  EXPECT_EQ(plan.processor[1], 0u);
  EXPECT_EQ(plan.end[1], 8);
  // GTP/c: a reusable copy on p1 makes p1 free of transfers (3 < 8).
  in.edges[0].copies = {1};
  plan = PlanGtp(in);
  EXPECT_EQ(plan.processor[1], 1u);
  EXPECT_TRUE(plan.migrated[1]);
  EXPECT_EQ(plan.end[1], 3);
  // A copy on a failed processor is no source.
  in.avail[1] = 0;
  plan = PlanGtp(in);
  EXPECT_EQ(plan.processor[1], 0u);
}

TEST(GtpPlanTest, ATaskComputingNowKeepsItsProcessorAheadOfOthers) {
  // Task 1 (level 1) runs on p0 with 1 s left; task 2 (level 0) is new
  // and fastest on p0: it comes after the running one.
  GtpInput in = Grid(1, 1);
  in.tasks = {Task({1}), Task({4}), Task({2})};
  in.tasks[0].placed = 0;
  in.tasks[0].computed = 1;
  in.tasks[1].placed = 0;
  in.tasks[1].computed = 0.75;
  in.edges = {{0, 1, 0.0, 1.0}};
  GtpPlan plan = PlanGtp(in);
  EXPECT_EQ(plan.order, (std::vector<size_t>{1, 2}));
  EXPECT_EQ(plan.end[1], 1);
  EXPECT_EQ(plan.start[2], 1);
  EXPECT_EQ(plan.end[2], 3);
}

TEST(GtpPlanTest, WithinALevelTheLongerRemainingPathGoesFirst) {
  // Tasks 0 and 1 are entries (level 0); 1 has the longer chain below it.
  GtpInput in = Grid(1, 1);
  in.tasks = {Task({1}), Task({1}), Task({1}), Task({8})};
  in.edges = {{1, 2}, {2, 3}};
  EXPECT_EQ(PlanGtp(in).order, (std::vector<size_t>{1, 0, 2, 3}));
}

TEST(GtpPlanTest, TheMasterAndAGivenTransferFunction) {
  // The producer's result is only on the master (kGtpMaster), which never
  // fails; the transfer function is asked for the move to each processor.
  GtpInput in = Grid(2, 1);
  in.tasks = {Task({1, 1}), Task({4, 4})};
  in.tasks[0].computed = 1;
  in.edges = {{0, 1, 10.0}};
  in.edges[0].copies = {kGtpMaster};
  int calls = 0;
  in.transfer = [&](const GtpEdge& e, size_t src, size_t dst, double left) {
    ++calls;
    EXPECT_EQ(src, kGtpMaster);
    EXPECT_EQ(left, 1);
    return e.data * (dst == 0 ? 0.5 : 0.1);  // p1 is closer
  };
  GtpPlan plan = PlanGtp(in);
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(plan.processor[1], 1u);
  EXPECT_EQ(plan.start[1], 1);
  EXPECT_EQ(plan.end[1], 5);
}

TEST(GtpPlanTest, PlansRespectPrecedenceAndNeverOverlap) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> time(1, 10), data(0, 8);
  for (int round = 0; round < 50; ++round) {
    const size_t n = 12, procs = 3;
    GtpInput in = Grid(procs, 2);
    for (size_t v = 0; v < n; ++v) {
      std::vector<Seconds> w;
      for (size_t m = 0; m < procs; ++m) w.push_back(time(rng));
      in.tasks.push_back(Task(w));
      for (size_t u = 0; u < v; ++u)
        if (rng() % 4 == 0) in.edges.push_back({u, v, data(rng)});
    }
    GtpPlan plan = PlanGtp(in);
    for (const GtpEdge& e : in.edges) {
      const bool same = plan.processor[e.from] == plan.processor[e.to];
      const Seconds cross = same ? 0 : e.data / 2;
      EXPECT_GE(plan.start[e.to] + 1e-9, plan.end[e.from] + cross);
    }
    Seconds latest = 0;
    for (size_t a = 0; a < n; ++a) {
      ASSERT_NE(plan.processor[a], kGtpNone);
      EXPECT_NEAR(plan.end[a] - plan.start[a], in.tasks[a].w[plan.processor[a]],
                  1e-9);
      latest = std::max(latest, plan.end[a]);
      for (size_t b = a + 1; b < n; ++b) {
        if (plan.processor[a] != plan.processor[b]) continue;
        EXPECT_TRUE(plan.end[a] <= plan.start[b] + 1e-9 ||
                    plan.end[b] <= plan.start[a] + 1e-9)
            << a << " and " << b << " overlap";
      }
    }
    EXPECT_EQ(plan.makespan, latest);
  }
}

}  // namespace
}  // namespace gs
