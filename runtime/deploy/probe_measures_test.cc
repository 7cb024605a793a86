#include "runtime/deploy/probe_measures.h"

#include <gtest/gtest.h>

namespace gs {
namespace {

TEST(ProbeMeasuresTest, RoundTripsAreTheMedianAndHalfTheRange) {
  Measure m = SummarizeSamples({0.004, 0.0002, 0.0003, 0.0002, 0.0004});
  EXPECT_DOUBLE_EQ(m.value, 0.0003);  // the 4 ms outlier does not decide
  EXPECT_DOUBLE_EQ(m.spread, (0.004 - 0.0002) / 2);
  EXPECT_DOUBLE_EQ(SummarizeSamples({1, 3}).value, 2);
}

constexpr uint64_t kMiB = uint64_t{1} << 20;

// Loopback: 4 MiB took 1.4 s once (fixed costs), then the rate settles.
TEST(ProbeMeasuresTest, ShortTransfersGrowUntilTheRateIsStable) {
  std::vector<TransferSample> done = {{4 * kMiB, 0.3}};
  EXPECT_EQ(NextTransferBytes(done, 256 * kMiB), 8 * kMiB);
  done.push_back({8 * kMiB, 0.35});
  EXPECT_EQ(NextTransferBytes(done, 256 * kMiB), 16 * kMiB);
  done.push_back({16 * kMiB, 0.6});
  EXPECT_EQ(NextTransferBytes(done, 256 * kMiB), 32 * kMiB);
  done.push_back({32 * kMiB, 1.15});  // 29 MB/s after 28 MB/s: agrees
  EXPECT_EQ(NextTransferBytes(done, 256 * kMiB), 0u);
  Measure b = BandwidthOf(done);
  EXPECT_NEAR(b.value, 32 * kMiB / 1.15, 1);
  EXPECT_NEAR(b.spread, 32 * kMiB / 1.15 - 16 * kMiB / 0.6, 1);
}

TEST(ProbeMeasuresTest, ALongTransferThatDisagreesIsRepeated) {
  std::vector<TransferSample> done = {{4 * kMiB, 0.2}, {8 * kMiB, 2.0}};
  EXPECT_EQ(NextTransferBytes(done, 256 * kMiB), 8 * kMiB);
  done.push_back({8 * kMiB, 2.1});
  EXPECT_EQ(NextTransferBytes(done, 256 * kMiB), 0u);
}

TEST(ProbeMeasuresTest, TheCapEndsTheSeries) {
  std::vector<TransferSample> done = {{4 * kMiB, 0.01}, {8 * kMiB, 0.02}};
  EXPECT_EQ(NextTransferBytes(done, 8 * kMiB), 0u);  // 16 MiB > the cap
  EXPECT_GT(BandwidthOf(done).value, 0);
}

TEST(ProbeMeasuresTest, ASingleTransferHasNoSpread) {
  EXPECT_EQ(BandwidthOf({{4 * kMiB, 1.0}}).spread, 0);
}

}  // namespace
}  // namespace gs
