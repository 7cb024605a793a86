// Placement restrictions (runtime.hosts.OP in gsrt.yaml): under every
// policy of the catalogue an operation kept to some hosts runs on those
// only, the others' tasks still use every host, and nothing is stuck.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "runtime/sched/policy_catalog.h"
#include "runtime/sched/replication.h"
#include "runtime/sched/run_to_end_test_util.h"
#include "runtime/sched/scheduler.h"

namespace gs {
namespace {

using testing_util::Capacity;
using testing_util::FixedPredictor;
using testing_util::RunToEnd;
using testing_util::Trace;

class PlacementTest : public ::testing::TestWithParam<std::string> {};

TEST_P(PlacementTest, KeptOperationsRunOnlyOnTheirHosts) {
  auto policy = MakePolicy(GetParam());
  ASSERT_TRUE(policy.ok()) << policy.status().ToString();
  const HostMask odd = {false, true, false, true};
  const HostMask two = {false, false, true};  // shorter than the host list
  std::map<OpId, Need> needs = {{1, Need{1, 0, &odd}}, {2, Need{2, 0, &two}}};
  std::vector<OpId> ops;
  for (int i = 0; i < 36; ++i) ops.push_back(static_cast<OpId>(i % 3));
  // Host 0 is the fastest for everything: a policy that ignored the
  // restriction would put the kept operations there.
  FixedPredictor predictor;
  predictor.et = {{0, 1.0}, {1, 2.0}, {2, 3.0}};
  predictor.host_factor = {1.0, 3.0, 3.0, 3.0};
  Trace ran = RunToEnd(std::move(policy).value(), {{2}, {2}, {2}, {2}}, needs,
                       ops, predictor);
  EXPECT_TRUE(ran.finished) << "some task never ran";
  EXPECT_EQ(ran.overflow, "");
  // MET and its kin put every task of an operation on its fastest host:
  // one of the allowed ones is enough.
  auto only = [](const std::set<HostId>& used, std::set<HostId> allowed) {
    if (used.empty()) return false;
    for (HostId h : used)
      if (!allowed.count(h)) return false;
    return true;
  };
  EXPECT_TRUE(only(ran.hosts_of_op[1], {1, 3}))
      << ::testing::PrintToString(ran.hosts_of_op[1]);
  EXPECT_TRUE(only(ran.hosts_of_op[2], {2}))
      << ::testing::PrintToString(ran.hosts_of_op[2]);
  EXPECT_FALSE(ran.hosts_of_op[0].empty());
}

std::vector<std::string> CatalogNames() {
  std::vector<std::string> names;
  for (const PolicyInfo& p : PolicyCatalog()) names.push_back(p.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(EveryPolicy, PlacementTest,
                         ::testing::ValuesIn(CatalogNames()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

TEST(NeedTest, AllowsOnlyTheHostsOfItsMask) {
  const HostMask mask = {true, false};
  Need kept{1, 0, &mask};
  EXPECT_TRUE(kept.Allows(0));
  EXPECT_FALSE(kept.Allows(1));
  EXPECT_FALSE(kept.Allows(2));  // past the mask's end
  EXPECT_FALSE(kept.simple());
  EXPECT_TRUE(Need{}.Allows(7));
  EXPECT_NE(kept, Need{});
}

TEST(NeedTest, TheBoardFitsAKeptTaskOnlyWhereItMayRun) {
  std::vector<HostState> hosts(2);
  const HostMask mask = {false, true};
  SlotBoard board(SchedulingInput{0, &hosts, nullptr});
  EXPECT_FALSE(board.Fits(0, Need{1, 0, &mask}));
  EXPECT_TRUE(board.Fits(1, Need{1, 0, &mask}));
  EXPECT_TRUE(board.Fits(0, Need{}));
}

TEST(NeedTest, ReplicasGoOnlyWhereTheTaskMayRun) {
  const HostMask mask = {true, false, true};
  ReplicationInput in;
  in.mode = ReplicationMode::kFixed;
  in.threshold = 3;
  in.free_slots = {0, 4, 1};
  in.free_memory = {-1, -1, -1};
  in.host_order = {1, 2, 0};
  in.running.push_back(RunningTask{7, {0}, Need{1, 0, &mask}});
  std::vector<Replica> replicas = PlanReplicas(in);
  ASSERT_EQ(replicas.size(), 1u);
  EXPECT_EQ(replicas[0].task, 7u);
  EXPECT_EQ(replicas[0].host, 2u);
}

}  // namespace
}  // namespace gs
