#include "runtime/sched/link_model.h"

#include <gtest/gtest.h>

#include <cmath>

namespace gs {
namespace {

TEST(LinkModelTest, SharedHostsCostNothing) {
  LinkModel m;
  m.AddHost(/*shared=*/true);
  EXPECT_EQ(m.Time(0, 1 << 30), 0);
  m.Observe(0, 1 << 20, 5.0);
  EXPECT_EQ(m.Time(0, 1 << 30), 0);
}

TEST(LinkModelTest, DefaultsBeforeAnyMeasurement) {
  LinkModel m;
  m.AddHost(false);
  EXPECT_NEAR(m.Time(0, 100'000'000), 0.001 + 1.0, 1e-9);
}

TEST(LinkModelTest, SmallTransfersTeachLatencyLargeOnesBandwidth) {
  LinkModel m;
  m.AddHost(false);
  m.Observe(0, 100, 0.05);  // 50 ms round trip
  EXPECT_NEAR(m.estimate(0).latency, 0.05, 1e-12);
  m.Observe(0, 10'000'000, 0.05 + 1.0);  // 10 MB in one second
  EXPECT_NEAR(m.estimate(0).bytes_per_second, 1e7, 1);
  EXPECT_NEAR(m.Time(0, 20'000'000), 0.05 + 2.0, 1e-6);
}

TEST(LinkModelTest, FollowsALinkThatSlowsDown) {
  LinkModel m;
  m.AddHost(false);
  m.Observe(0, 10'000'000, 0.101);
  for (int i = 0; i < 20; ++i) m.Observe(0, 10'000'000, 10.001);
  EXPECT_LT(m.estimate(0).bytes_per_second, 2e6);
}

TEST(LinkModelTest, IgnoresNonsense) {
  LinkModel m;
  m.AddHost(false);
  m.Observe(0, 10'000'000, -1);
  m.Observe(0, 10'000'000, std::nan(""));
  EXPECT_EQ(m.estimate(0).samples(), 0);
}

}  // namespace
}  // namespace gs
