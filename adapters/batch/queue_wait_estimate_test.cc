#include "adapters/batch/queue_wait_estimate.h"

#include <gtest/gtest.h>

namespace gs {
namespace {

constexpr JobShape kSmall{1, 1, 600};
constexpr JobShape kWide{1, 4, 600};
constexpr JobShape kFat{16, 1, 600};
constexpr JobShape kLong{1, 1, 86400};

TEST(QueueWaitEstimateTest, SameSizeIsSameNodesAndCoresAndWalltimeNear) {
  EXPECT_TRUE(SameSize(kSmall, kSmall));
  EXPECT_TRUE(SameSize(kSmall, JobShape{2, 1, 1200}));  // a factor of two
  EXPECT_FALSE(SameSize(kSmall, JobShape{3, 1, 600}));
  EXPECT_FALSE(SameSize(kSmall, kWide));
  EXPECT_FALSE(SameSize(kSmall, kFat));
  EXPECT_FALSE(SameSize(kSmall, kLong));
  // No walltime (the partition's default) matches only no walltime.
  EXPECT_FALSE(SameSize(kSmall, JobShape{1, 1, 0}));
  EXPECT_TRUE(SameSize(JobShape{1, 1, 0}, JobShape{2, 1, 0}));
}

TEST(QueueWaitEstimateTest, HistoryOfTheSameSizeFirst) {
  const std::vector<SizedWait> waits = {
      {kWide, 5000}, {kSmall, 10}, {kFat, 900}, {kSmall, 30}};
  WaitEstimate e = EstimateFromHistory(waits, kSmall);
  EXPECT_EQ(e.basis, WaitBasis::kHistoryBySize);
  EXPECT_DOUBLE_EQ(e.seconds, 20);
  EXPECT_EQ(e.samples, 2);
  EXPECT_EQ(e.Describe(), "history of 2 jobs of this size");
  e = EstimateFromHistory(waits, kWide);
  EXPECT_DOUBLE_EQ(e.seconds, 5000);
  EXPECT_EQ(e.Describe(), "history of 1 job of this size");
}

TEST(QueueWaitEstimateTest, HistoryOfOtherSizesWhenNoneOfThisOne) {
  const std::vector<SizedWait> waits = {{kWide, 100}, {kFat, 300}};
  const WaitEstimate e = EstimateFromHistory(waits, kLong);
  EXPECT_EQ(e.basis, WaitBasis::kHistory);
  EXPECT_DOUBLE_EQ(e.seconds, 200);
  EXPECT_EQ(e.Describe(), "history of 2 jobs of other sizes");
}

TEST(QueueWaitEstimateTest, NewestWaitsWithinTheLimit) {
  std::vector<SizedWait> waits(30, {kSmall, 100});
  for (int i = 0; i < 5; ++i) waits.insert(waits.begin(), {kSmall, 10});
  // The newest 5 (10 s) and 15 of the older (100 s).
  EXPECT_DOUBLE_EQ(EstimateFromHistory(waits, kSmall, 20).seconds,
                   (5 * 10 + 15 * 100) / 20.0);
}

TEST(QueueWaitEstimateTest, NothingKnownIsZero) {
  const WaitEstimate e = EstimateFromHistory({}, kSmall);
  EXPECT_EQ(e.basis, WaitBasis::kNone);
  EXPECT_EQ(e.seconds, 0);
  EXPECT_EQ(e.Describe(), "unknown");
  EXPECT_EQ(EstimateQueueWait(std::nullopt, 100, e).basis, WaitBasis::kNone);
}

TEST(QueueWaitEstimateTest, TheSystemsEstimateBeatsTheHistory) {
  const WaitEstimate history = EstimateFromHistory({{kSmall, 10}}, kSmall);
  WaitEstimate e = EstimateQueueWait(1600.0, 1000, history);
  EXPECT_EQ(e.basis, WaitBasis::kBatchSystem);
  EXPECT_DOUBLE_EQ(e.seconds, 600);
  EXPECT_EQ(e.Describe("slurm"), "slurm estimate");
  // A start already passed: it starts now.
  EXPECT_DOUBLE_EQ(EstimateQueueWait(900.0, 1000, history).seconds, 0);
  EXPECT_EQ(EstimateQueueWait(std::nullopt, 1000, history).basis,
            WaitBasis::kHistoryBySize);
}

TEST(QueueWaitEstimateTest, BatchJobShapeTakesTheLargerCoresAndWalltime) {
  BatchConfig config;
  config.cpus_per_task = 4;
  config.walltime = 3600;
  JobShape s = BatchJobShape(config, 2);
  EXPECT_EQ(s.cores, 4);
  EXPECT_EQ(s.nodes, 1);
  EXPECT_EQ(s.walltime, 3600);
  EXPECT_EQ(BatchJobShape(config, 8).cores, 8);
}

}  // namespace
}  // namespace gs
