// Replication (paper 001: WQR, WQR-FT, WQDR-FT) through the real engine in
// virtual time on sim hosts: replicas use the slots freed once nothing
// waits, the first instance to succeed wins, the losers are cancelled at
// that virtual time and their work counts as wasted.
#include <gtest/gtest.h>

#include "runtime/engine/engine.h"
#include "sim/experiments/sim_experiments.h"
#include "sim/runner/sim_run.h"

namespace gs {
namespace {

std::vector<SimHostSpec> Hosts(size_t n) {
  std::vector<SimHostSpec> hosts(n);
  for (size_t h = 0; h < n; ++h) hosts[h].name = "sim" + std::to_string(h);
  return hosts;
}

SimResult RunWith(std::shared_ptr<SimWorkload> wl, const std::string& policy,
                  std::vector<SimHostSpec> hosts, int threshold = 0) {
  SimWorld world(std::move(hosts), wl, 1);
  SimRunOptions o;
  o.policy = policy;
  o.replication_threshold = threshold;
  auto r = RunSimulation(world, wl, o, [&](Engine& e) { wl->SubmitAll(e); });
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? *r : SimResult{};
}

TEST(SimReplicationTest, TheReplicaOnTheFastHostWins) {
  // WorkQueue knows no times: the task goes to sim0 (first free, 100 s);
  // sim1 is idle and nothing waits, so it runs a replica (10 s) that wins.
  auto wl = std::make_shared<SimWorkload>(2);
  wl->AddOp({100, 10}, {});
  SimResult r = RunWith(wl, "wqr-ft", Hosts(2));
  EXPECT_EQ(r.tasks_done, 1u);
  EXPECT_DOUBLE_EQ(r.makespan, 10);
  EXPECT_EQ(r.replicas, 1u);
  EXPECT_EQ(r.replica_wins, 1u);
  EXPECT_EQ(r.jobs_cancelled, 1u);
  // The loser computed from 0 to 10 on sim0.
  EXPECT_DOUBLE_EQ(r.wasted_cpu, 10);
  EXPECT_DOUBLE_EQ(r.useful_cpu, 10);
  // Threshold 1 is plain WorkQueue: the task takes its 100 s on sim0.
  SimResult one = RunWith(wl, "wqr-ft", Hosts(2), 1);
  EXPECT_DOUBLE_EQ(one.makespan, 100);
  EXPECT_EQ(one.replicas, 0u);
}

TEST(SimReplicationTest, ACancelledReplicaFreesItsSlotAtOnce) {
  // a: 100 s on sim0, 10 on sim1 (its replica there wins at 10);
  // b needs a's output: placed at 10 on sim1 (the only free slot then,
  // 50 s), replicated on sim0 as soon as a's loser there is cancelled (5 s):
  // ends at 15 only if sim0's slot is free at 10.
  auto wl = std::make_shared<SimWorkload>(2);
  wl->AddOp({100, 10}, {{"a", GS_DIR_OUT, 10}});
  wl->AddOp({5, 50}, {{"a", GS_DIR_IN}});
  SimResult r = RunWith(wl, "wqr-ft", Hosts(2));
  EXPECT_EQ(r.tasks_done, 2u);
  EXPECT_DOUBLE_EQ(r.makespan, 15);
  EXPECT_EQ(r.replicas, 2u);
  EXPECT_EQ(r.replica_wins, 2u);
  EXPECT_EQ(r.jobs_cancelled, 2u);
  EXPECT_DOUBLE_EQ(r.wasted_cpu, 10 + 5);
}

TEST(SimReplicationTest, ThresholdLimitsInstancesPerTask) {
  // One task, four idle hosts: threshold 3 runs it three times at once.
  auto wl = std::make_shared<SimWorkload>(4);
  wl->AddOp({40, 30, 20, 10}, {});
  SimWorld world(Hosts(4), wl, 1);
  SimRunOptions o;
  o.policy = "wqr-ft";
  o.replication_threshold = 3;
  auto r = RunSimulation(world, wl, o, [&](Engine& e) { wl->SubmitAll(e); });
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->replicas, 2u);
  // The instances run on sim0, sim1, sim2: the best is 20 s.
  EXPECT_DOUBLE_EQ(r->makespan, 20);
  EXPECT_DOUBLE_EQ(r->wasted_cpu, 2 * 20);
}

TEST(SimReplicationTest, WqrDoesNotRestartButWqrFtDoes) {
  // Two tasks on two busy hosts (no replica), sim0 down for good at 10:
  // WQR as the paper defines it leaves the lost task undone.
  BotOptions o;
  o.tasks = 2;
  o.hosts = 2;
  o.speed_spread = 0;
  o.failures = {{0, 10, -1}};
  o.policy = "wqr";
  auto wqr = RunBot(o);
  ASSERT_TRUE(wqr.ok()) << wqr.status().message();
  EXPECT_EQ(wqr->tasks_done, 1u);
  EXPECT_EQ(wqr->tasks_failed, 1u);
  o.policy = "wqr-ft";
  auto ft = RunBot(o);
  ASSERT_TRUE(ft.ok()) << ft.status().message();
  EXPECT_EQ(ft->tasks_done, 2u);
  EXPECT_EQ(ft->job_failures, 1u);
}

TEST(SimReplicationTest, BagOnFailingHostsFinishesAndIsDeterministic) {
  for (const char* policy : {"wqr-ft", "wqdr-ft"}) {
    BotOptions o;
    o.tasks = 200;
    o.hosts = 12;
    o.mean = 100;
    o.mtbf = 2000;
    o.mttr = 200;
    o.policy = policy;
    o.threshold = 3;
    o.seed = 7;
    auto a = RunBot(o);
    auto b = RunBot(o);
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(a->tasks_done, 200u) << policy;
    EXPECT_GT(a->replicas, 0u) << policy;
    EXPECT_GT(a->job_failures, 0u) << policy << ": the hosts should fail";
    EXPECT_LE(a->replica_wins, a->replicas);
    EXPECT_DOUBLE_EQ(a->makespan, b->makespan) << policy;
    EXPECT_DOUBLE_EQ(a->wasted_cpu, b->wasted_cpu) << policy;
    EXPECT_DOUBLE_EQ(a->mean_task_end, b->mean_task_end) << policy;
    EXPECT_EQ(a->replicas, b->replicas) << policy;
    EXPECT_EQ(a->events, b->events) << policy;
  }
}

}  // namespace
}  // namespace gs
