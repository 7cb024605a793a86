// WorkQueue placement and what the policies ask of the engine through the
// Policy interface (the engine never casts a policy to its type).
#include "runtime/sched/policies_workqueue.h"

#include <gtest/gtest.h>

namespace gs {
namespace {

class Constant : public Predictor {
 public:
  Seconds ExecTime(OpId, HostId) const override { return 1; }
  Seconds TransferTime(TaskId, HostId) const override { return 0; }
};

std::unique_ptr<Policy> Make(const char* name) {
  auto p = MakePolicy(name);
  EXPECT_TRUE(p.ok()) << name << ": " << p.status().ToString();
  return p.ok() ? std::move(p).value() : nullptr;
}

TEST(WorkQueuePolicyTest, AsksForItsReplicationAndTheHostOrder) {
  auto wqr = Make("wqr");
  auto wqdr = Make("wqdr-ft");
  ASSERT_TRUE(wqr && wqdr);
  EXPECT_EQ(wqr->needs().replication, ReplicationMode::kFixed);
  EXPECT_EQ(Make("wqr-ft")->needs().replication, ReplicationMode::kFixed);
  EXPECT_EQ(wqdr->needs().replication, ReplicationMode::kDynamic);
  EXPECT_TRUE(wqdr->needs().host_order);
  EXPECT_FALSE(wqdr->needs().reliability);
}

TEST(WorkQueuePolicyTest, OtherPoliciesAskForNothingButTheirOwn) {
  for (const char* name : {"mct", "met", "ftmct", "min-min"}) {
    auto p = Make(name);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->needs().replication, ReplicationMode::kOff) << name;
    EXPECT_FALSE(p->needs().host_order) << name;
    EXPECT_FALSE(p->needs().reliability) << name;
  }
  auto grank = Make("grank");
  ASSERT_TRUE(grank);
  EXPECT_TRUE(grank->needs().reliability);
  EXPECT_EQ(grank->needs().replication, ReplicationMode::kOff);
}

TEST(WorkQueuePolicyTest, TriesHostsInTheOrderGivenThroughThePolicy) {
  auto policy = Make("wqdr-ft");
  ASSERT_TRUE(policy);
  std::vector<HostState> hosts(3);
  Constant predictor;
  SchedulingInput in{0, &hosts, &predictor};
  {
    SlotBoard board(in);
    EXPECT_EQ(policy->Choose({0, 0}, board, predictor).host, 0u)
        << "no order: by index";
  }
  policy->SetHostOrder({2, 0});
  SlotBoard board(in);
  EXPECT_EQ(policy->Choose({0, 0}, board, predictor).host, 2u);
  board.Take(2, 1);
  EXPECT_EQ(policy->Choose({1, 0}, board, predictor).host, 0u);
  board.Take(0, 1);
  EXPECT_EQ(policy->Choose({2, 0}, board, predictor).host, 1u)
      << "hosts not listed come after";
  board.Take(1, 1);
  EXPECT_EQ(policy->Choose({3, 0}, board, predictor).host, kNoHost)
      << "no free slot: the task waits";
}

}  // namespace
}  // namespace gs
