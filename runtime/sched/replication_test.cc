#include "runtime/sched/replication.h"

#include <gtest/gtest.h>

#include <cmath>

namespace gs {
namespace {

ReplicationInput Input(ReplicationMode mode, int threshold,
                       std::vector<int> free) {
  ReplicationInput in;
  in.mode = mode;
  in.threshold = threshold;
  in.free_slots = std::move(free);
  for (HostId h = 0; h < in.free_slots.size(); ++h) in.host_order.push_back(h);
  return in;
}

TEST(ReplicationTest, OffNeverReplicates) {
  auto in = Input(ReplicationMode::kOff, 3, {4, 4});
  in.running = {{7, {0}}};
  EXPECT_TRUE(PlanReplicas(in).empty());
}

TEST(ReplicationTest, FixedThresholdCountsTheFirstInstance) {
  auto in = Input(ReplicationMode::kFixed, 3, {0, 2, 2, 2});
  in.running = {{7, {0}}};
  auto plan = PlanReplicas(in);
  ASSERT_EQ(plan.size(), 2u);  // 3 instances in all
  EXPECT_EQ(plan[0].host, 1u);
  EXPECT_EQ(plan[1].host, 2u);
}

TEST(ReplicationTest, InstancesOfOneTaskNeverShareAHost) {
  auto in = Input(ReplicationMode::kFixed, 4, {8, 0});
  in.running = {{7, {0}}};
  // Host 0 has slots but already runs task 7; host 1 has none.
  EXPECT_TRUE(PlanReplicas(in).empty());
}

TEST(ReplicationTest, EveryTaskGetsASecondInstanceBeforeAnyGetsAThird) {
  auto in = Input(ReplicationMode::kFixed, 3, {0, 1, 1});
  in.running = {{1, {0}}, {2, {0}}};
  auto plan = PlanReplicas(in);
  ASSERT_EQ(plan.size(), 2u);
  EXPECT_EQ(plan[0].task, 1u);
  EXPECT_EQ(plan[1].task, 2u);
}

TEST(ReplicationTest, HostsAreTriedInTheGivenOrder) {
  auto in = Input(ReplicationMode::kFixed, 2, {0, 1, 1});
  in.host_order = {2, 1, 0};  // host 2 has the best success rate
  in.running = {{5, {0}}};
  auto plan = PlanReplicas(in);
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0].host, 2u);
}

// Paper 001, lines 4-5 and 25-26: SR = T/N with T the successful jobs and
// N the jobs submitted, RLTH = 1 + 1/SR, no cap.
TEST(ReplicationTest, DynamicThresholdIsOnePlusInverseSuccessRate) {
  auto in = Input(ReplicationMode::kDynamic, 2, {});
  in.jobs_ok = 10;
  in.jobs_submitted = 10;  // SR = 1
  EXPECT_DOUBLE_EQ(ReplicationThreshold(in), 2.0);
  in.jobs_ok = 5;  // SR = 0.5
  EXPECT_DOUBLE_EQ(ReplicationThreshold(in), 3.0);
  in.jobs_ok = 4;  // SR = 0.4
  EXPECT_DOUBLE_EQ(ReplicationThreshold(in), 3.5);
  in.jobs_ok = 1;  // SR = 0.1: `threshold` is fixed mode's, not a cap
  EXPECT_DOUBLE_EQ(ReplicationThreshold(in), 11.0);
}

TEST(ReplicationTest, DynamicSuccessRateCountsSubmittedNotFinishedJobs) {
  // 8 jobs ended well and 8 more are running: SR is 8/16, not 8/8.
  auto in = Input(ReplicationMode::kDynamic, 2, {});
  in.jobs_ok = 8;
  in.jobs_submitted = 16;
  EXPECT_DOUBLE_EQ(ReplicationThreshold(in), 3.0);
}

TEST(ReplicationTest, DynamicCapIsAnOption) {
  auto in = Input(ReplicationMode::kDynamic, 2, {});
  in.jobs_ok = 1;
  in.jobs_submitted = 10;  // RLTH 11
  in.cap = 4;
  EXPECT_DOUBLE_EQ(ReplicationThreshold(in), 4.0);
  in.jobs_ok = 10;  // RLTH 2, under the cap
  EXPECT_DOUBLE_EQ(ReplicationThreshold(in), 2.0);
}

TEST(ReplicationTest, DynamicModeReplicatesWhileBelowTheThreshold) {
  auto in = Input(ReplicationMode::kDynamic, 2, {0, 1, 1, 1, 1});
  in.jobs_ok = 4;
  in.jobs_submitted = 10;  // RLTH = 3.5: up to 4 instances (3 < 3.5)
  in.running = {{9, {0}}};
  EXPECT_EQ(PlanReplicas(in).size(), 3u);
  in.jobs_ok = 10;  // RLTH = 2
  EXPECT_EQ(PlanReplicas(in).size(), 1u);
}

TEST(ReplicationTest, BeforeAnyJobSucceededEveryFreeHostTakesAReplica) {
  // SR = 0 makes RLTH unbounded: only the free hosts limit the replicas.
  auto in = Input(ReplicationMode::kDynamic, 2, {0, 3, 1, 2});
  in.jobs_submitted = 1;
  in.running = {{1, {0}}};
  EXPECT_TRUE(std::isinf(ReplicationThreshold(in)));
  EXPECT_EQ(PlanReplicas(in).size(), 3u);  // one on each other host
  in.cap = 2;
  EXPECT_EQ(PlanReplicas(in).size(), 1u);
}

}  // namespace
}  // namespace gs
