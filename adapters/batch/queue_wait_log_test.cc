#include "adapters/batch/queue_wait_log.h"

#include <gtest/gtest.h>

namespace gs {
namespace {

constexpr JobShape kSmall{1, 1, 0};

TEST(QueueWaitLogTest, ThisRunsWaitsComeBeforeTheEarlierRunsAndCountAtOnce) {
  QueueWaitLog log("debug", {{kSmall, 100}, {kSmall, 300}});
  EXPECT_DOUBLE_EQ(log.FromHistory(kSmall).seconds, 200);
  // A new wait is in the next estimate (the one kept before is not used).
  log.Add(1000, 1020, kSmall);
  const WaitEstimate e = log.FromHistory(kSmall);
  EXPECT_DOUBLE_EQ(e.seconds, 140);
  EXPECT_EQ(e.samples, 3);
  EXPECT_DOUBLE_EQ(log.NewestFirst().front().wait, 20);
  // Another size asks again.
  EXPECT_EQ(log.FromHistory(JobShape{1, 4, 0}).basis, WaitBasis::kHistory);
  ASSERT_EQ(log.Take().size(), 1u);
  EXPECT_EQ(log.waits().front().partition, "debug");
}

}  // namespace
}  // namespace gs
