#include "sim/runner/sim_run.h"

#include <gtest/gtest.h>

#include "runtime/engine/engine.h"

namespace gs {
namespace {

std::vector<SimHostSpec> Hosts(size_t n, Seconds latency = 0) {
  std::vector<SimHostSpec> hosts(n);
  for (size_t h = 0; h < n; ++h) {
    hosts[h].name = "sim" + std::to_string(h);
    hosts[h].latency = latency;
  }
  return hosts;
}

using File = SimWorkload::FileArg;

// a -> {b, c} -> d, with files between them.
std::shared_ptr<SimWorkload> Diamond() {
  auto wl = std::make_shared<SimWorkload>(2);
  wl->AddOp({10, 20}, {{"a", GS_DIR_OUT, 100}});
  wl->AddOp({5, 5}, {{"a", GS_DIR_IN}, {"b", GS_DIR_OUT, 100}});
  wl->AddOp({8, 4}, {{"a", GS_DIR_IN}, {"c", GS_DIR_OUT, 100}});
  wl->AddOp({1, 1},
            {{"b", GS_DIR_IN}, {"c", GS_DIR_IN}, {"d", GS_DIR_OUT, 10}});
  return wl;
}

SimResult RunSim(std::vector<SimHostSpec> hosts,
                 std::shared_ptr<SimWorkload> wl, std::string policy = "mct",
                 std::string rewind = "gtp-c-r") {
  SimWorld world(std::move(hosts), wl, 1);
  SimRunOptions o;
  o.policy = policy;
  o.rewind = rewind;
  auto r = RunSimulation(world, wl, o, [&](Engine& e) { wl->SubmitAll(e); });
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? *r : SimResult{};
}

TEST(SimRunTest, OneTaskTakesItsTimeInVirtualTime) {
  auto wl = std::make_shared<SimWorkload>(1);
  wl->AddOp({1000}, {});
  SimResult r = RunSim(Hosts(1), wl);
  EXPECT_EQ(r.tasks_done, 1u);
  EXPECT_DOUBLE_EQ(r.makespan, 1000);
  EXPECT_LT(r.wall_seconds, 100);  // not real time
  EXPECT_DOUBLE_EQ(r.utilization, 1);
}

// runtime.hosts in virtual time: the kept operation's jobs all run on the
// host named, the others wherever the policy puts them.
TEST(SimRunTest, AKeptOperationRunsOnlyOnItsHost) {
  auto wl = std::make_shared<SimWorkload>(3);
  for (int i = 0; i < 12; ++i) wl->AddOp({1, 1, 1}, {});
  SimWorld world(Hosts(3), wl, 1);
  world.stats().record_jobs = true;
  SimRunOptions o;
  // t0-t5 to sim2 (the policy would spread them), t6-t8 away from it.
  for (int i = 0; i < 6; ++i) o.placement["t" + std::to_string(i)] = {"sim2"};
  for (int i = 6; i < 9; ++i)
    o.placement["t" + std::to_string(i)] = {"sim0", "sim1"};
  auto r = RunSimulation(world, wl, o, [&](Engine& e) { wl->SubmitAll(e); });
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->tasks_done, 12u);
  int free = 0;
  for (const SimJobRecord& j : world.stats().jobs) {
    const int k = std::stoi(j.operation.substr(1));
    if (k < 6) EXPECT_EQ(j.host, 2u) << j.operation;
    if (k >= 6 && k < 9) EXPECT_NE(j.host, 2u) << j.operation;
    free += k >= 9;
  }
  EXPECT_EQ(free, 3);
  EXPECT_DOUBLE_EQ(r->makespan, 6) << "sim2 ran its six one after another";
}

TEST(SimRunTest, ChainOnOneHostKeepsItsDataThere) {
  auto wl = std::make_shared<SimWorkload>(1);
  wl->AddOp({3}, {{"x", GS_DIR_OUT, 50}});
  wl->AddOp({4}, {{"x", GS_DIR_IN}, {"y", GS_DIR_OUT, 50}});
  wl->AddOp({5}, {{"y", GS_DIR_IN}, {"z", GS_DIR_OUT, 50}});
  SimResult r = RunSim(Hosts(1, /*latency=*/2), wl);
  EXPECT_EQ(r.tasks_done, 3u);
  EXPECT_DOUBLE_EQ(r.makespan, 12);
  // Nothing travels until GS_Off, which fetches each file's final version
  // (x, y, z) one after the other at 2 s latency each.
  EXPECT_DOUBLE_EQ(r.end_time, 12 + 3 * 2);
}

TEST(SimRunTest, DiamondIsDeterministicAndStagesData) {
  SimResult a = RunSim(Hosts(2, 1), Diamond());
  SimResult b = RunSim(Hosts(2, 1), Diamond());
  EXPECT_EQ(a.tasks_done, 4u);
  EXPECT_EQ(a.tasks_failed, 0u);
  EXPECT_DOUBLE_EQ(a.makespan, b.makespan);
  EXPECT_EQ(a.events, b.events);
  // a (10 on sim0) then b and c; d; at least the critical path.
  EXPECT_GE(a.makespan, 10 + 4 + 1);
}

TEST(SimRunTest, HostDownMidRunIsRewoundAndTheRunCompletes) {
  auto hosts = Hosts(2, 1);
  // sim0 runs a (it is faster there) and fails before d needs a's copy.
  hosts[0].trace = {{12, SimAvail::kDown}};
  SimResult r = RunSim(hosts, Diamond());
  EXPECT_EQ(r.tasks_done, 4u);
  EXPECT_EQ(r.host_downs, 1u);
  EXPECT_GE(r.hosts_lost, 1u);
  EXPECT_GE(r.rt, 1u);
  SimResult again = RunSim(hosts, Diamond());
  EXPECT_DOUBLE_EQ(r.makespan, again.makespan);
  EXPECT_EQ(r.rt, again.rt);
}

TEST(SimRunTest, AHostLostUnnoticedUntilGsOffIsRecovered) {
  // t0 runs on sim0 (faster) and ends at 10; sim0 dies at 10.5, while
  // GS_Off fetches t0's output from it (1 s latency). The engine learns of
  // the loss from the failed fetch: t0 is rewound and must run again on
  // sim1 before the run can end.
  auto wl = std::make_shared<SimWorkload>(2);
  wl->AddOp({10, 20}, {{"out", GS_DIR_OUT, 5}});
  auto hosts = Hosts(2, 1);
  hosts[0].trace = {{10.5, SimAvail::kDown}};
  SimWorld world(hosts, wl, 1);
  SimRunOptions o;
  auto r = RunSimulation(world, wl, o, [&](Engine& e) { wl->SubmitAll(e); });
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->lost_outputs, 0u);
  EXPECT_EQ(r->hosts_lost, 1u);
  EXPECT_EQ(r->rt, 1u);
  EXPECT_EQ(r->tasks_done, 1u);
  // Again on sim1 (20 s from 10.5), then fetched from there (1 s).
  EXPECT_DOUBLE_EQ(r->end_time, 10.5 + 20 + 1);
}

}  // namespace
}  // namespace gs
