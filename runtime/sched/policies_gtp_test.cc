#include "runtime/sched/policies_gtp.h"

#include <gtest/gtest.h>

namespace gs {
namespace {

class UnitPredictor : public Predictor {
 public:
  Seconds ExecTime(OpId, HostId) const override { return 1; }
  Seconds TransferTime(TaskId, HostId) const override { return 0; }
};

std::vector<HostState> Hosts(size_t n) {
  std::vector<HostState> hosts(n);
  for (HostState& h : hosts) h.slots = 1;
  return hosts;
}

// A chain 0 -> 1 whose edge is costly to move, and an independent task 2:
// GTP keeps 1 with 0 on p1 (fast for both) and sends 2 to p0.
GtpInput ChainAndOne() {
  GtpInput in;
  in.avail = {1, 1};
  in.bandwidth = {{1, 1}, {1, 1}};
  GtpTask slow_fast;
  slow_fast.w = {10, 2};
  GtpTask any;
  any.w = {3, 3};
  in.tasks = {slow_fast, slow_fast, any};
  in.edges = {{0, 1, 100.0}};
  return in;
}

TEST(GtpPolicyTest, SendsReadyTasksWhereThePlanSays) {
  GtpPolicy gtp;
  auto hosts = Hosts(2);
  UnitPredictor p;
  std::vector<ReadyTask> ready = {{20, 0}, {22, 0}};  // engine ids
  EXPECT_TRUE(gtp.WantsDag(0, ready, hosts));         // no plan yet
  gtp.SetDag(ChainAndOne(), {20, 21, 22});
  EXPECT_EQ(gtp.PlannedHost(20), 1u);
  EXPECT_EQ(gtp.PlannedHost(21), 1u);
  // Task 2 would end at 3 on either; p1 is taken by the chain until 4.
  EXPECT_EQ(gtp.PlannedHost(22), 0u);
  EXPECT_FALSE(gtp.WantsDag(0, ready, hosts));
  std::vector<Placement> out;
  gtp.Place(ready, {0, &hosts, &p}, &out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].task, 20u);
  EXPECT_EQ(out[0].host, 1u);
  EXPECT_EQ(out[1].task, 22u);
  EXPECT_EQ(out[1].host, 0u);
}

TEST(GtpPolicyTest, ReschedulingPoints) {
  GtpPolicy gtp;
  auto hosts = Hosts(2);
  std::vector<ReadyTask> ready = {{20, 0}};
  gtp.SetDag(ChainAndOne(), {20, 21, 22});
  // Planned makespan 4 (the chain on p1): the next point is 0.4 later.
  EXPECT_FALSE(gtp.WantsDag(0.39, ready, hosts));
  EXPECT_TRUE(gtp.WantsDag(0.4, ready, hosts));
  // A ready task the plan does not know, or whose host was lost.
  std::vector<ReadyTask> unknown = {{30, 0}};
  EXPECT_TRUE(gtp.WantsDag(0, unknown, hosts));
  hosts[1].usable = false;
  EXPECT_TRUE(gtp.WantsDag(0, ready, hosts));
  EXPECT_EQ(gtp.plans(), 1u);
}

TEST(GtpPolicyTest, AWaitingPlannedHostHoldsTheTask) {
  // Task 2 planned on p0, which is busy: it waits there rather than take
  // the free p1 (the plan keeps p1 for the chain).
  GtpPolicy gtp;
  auto hosts = Hosts(2);
  hosts[0].AddBusy(5, Need{});
  UnitPredictor p;
  gtp.SetDag(ChainAndOne(), {20, 21, 22});
  std::vector<ReadyTask> ready = {{22, 0}};
  std::vector<Placement> out;
  gtp.Place(ready, {0, &hosts, &p}, &out);
  EXPECT_TRUE(out.empty());
}

}  // namespace
}  // namespace gs
