#include "runtime/sched/exec_time_estimator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace gs {
namespace {

using Basis = ExecTimeEstimator::Basis;

TEST(ExecTimeEstimatorTest, UnknownEverywhereGivesTheDefault) {
  ExecTimeEstimator zero;
  EXPECT_EQ(zero.Predict("mul", "h1"), 0.0);
  ExecTimeEstimator five(ExecTimeOptions{.window = 20, .unknown_default = 5});
  EXPECT_EQ(five.Predict("mul", "h1"), 5.0);
  OpId op = five.InternOp("mul");
  HostId host = five.InternHost("h1");
  EXPECT_EQ(five.Predict(op, host), 5.0);
  EXPECT_EQ(five.Explain(op, host).basis, Basis::kDefault);
}

TEST(ExecTimeEstimatorTest, MeanOfObservationsOnTheHost) {
  ExecTimeEstimator e;
  e.Observe("mul", "h1", 2.0);
  e.Observe("mul", "h1", 4.0);
  e.Observe("mul", "h1", 9.0);
  EXPECT_DOUBLE_EQ(e.Predict("mul", "h1"), 5.0);
  auto p = e.Explain(*e.FindOp("mul"), *e.FindHost("h1"));
  EXPECT_EQ(p.basis, Basis::kThisHost);
  EXPECT_EQ(p.samples, 3);
}

TEST(ExecTimeEstimatorTest, OnlyTheLastWindowCounts) {
  ExecTimeEstimator e(ExecTimeOptions{.window = 20});
  for (int i = 1; i <= 30; ++i) e.Observe("mul", "h1", i);
  EXPECT_DOUBLE_EQ(e.Predict("mul", "h1"), 20.5);  // mean of 11..30
  EXPECT_EQ(e.SampleCount(*e.FindOp("mul"), *e.FindHost("h1")), 20);
}

TEST(ExecTimeEstimatorTest, OtherHostsGiveTheMeanOfHostMeansUnscaled) {
  ExecTimeEstimator e;
  for (int i = 0; i < 4; ++i) e.Observe("mul", "fast", 1.0);
  e.Observe("mul", "slow", 10.0);
  // (1 + 10) / 2, not the mean of the five jobs (2.8): each host counts once.
  EXPECT_DOUBLE_EQ(e.Predict("mul", "new"), 5.5);
  HostId fresh = e.InternHost("new");
  auto p = e.Explain(*e.FindOp("mul"), fresh);
  EXPECT_EQ(p.basis, Basis::kOtherHosts);
  EXPECT_EQ(p.samples, 2);
  // Another operation's data never leaks in.
  EXPECT_EQ(e.Predict("add", "fast"), 0.0);
}

TEST(ExecTimeEstimatorTest, OtherHostsMeanFollowsSlidingWindows) {
  ExecTimeEstimator e(ExecTimeOptions{.window = 3});
  std::vector<std::vector<double>> seen(4);
  for (int i = 0; i < 1000; ++i) {
    int h = i % 4;
    double v = 0.1 * ((i * 7919) % 101);
    e.Observe("op", "h" + std::to_string(h), v);
    seen[h].push_back(v);
  }
  double sum_of_means = 0;
  for (const auto& values : seen) {
    double s = 0;
    for (size_t k = values.size() - 3; k < values.size(); ++k) s += values[k];
    sum_of_means += s / 3;
  }
  EXPECT_NEAR(e.Predict("op", "elsewhere"), sum_of_means / 4, 1e-9);
}

TEST(ExecTimeEstimatorTest, IdsAreDenseStableAndAgreeWithNames) {
  ExecTimeEstimator e;
  EXPECT_EQ(e.InternOp("a"), 0u);
  EXPECT_EQ(e.InternOp("b"), 1u);
  EXPECT_EQ(e.InternOp("a"), 0u);
  EXPECT_EQ(e.InternHost("x"), 0u);
  EXPECT_EQ(e.OpName(1), "b");
  EXPECT_EQ(e.HostName(0), "x");
  e.Observe(e.InternOp("b"), e.InternHost("x"), 3.0);
  EXPECT_EQ(e.Predict("b", "x"), e.Predict(OpId{1}, HostId{0}));
  // Name lookups never intern.
  EXPECT_EQ(e.Predict("zzz", "yyy"), 0.0);
  EXPECT_FALSE(e.FindOp("zzz").has_value());
  EXPECT_FALSE(e.FindHost("yyy").has_value());
}

TEST(ExecTimeEstimatorTest, SeedKeepsTheNewestSamples) {
  ExecTimeEstimator e(ExecTimeOptions{.window = 2});
  // As History::LoadExecTimes returns them: newest first per key.
  std::vector<ExecTimeSample> samples = {{"mul", "h1", 5.0, 300},
                                         {"mul", "h1", 4.0, 200},
                                         {"mul", "h1", 3.0, 100},
                                         {"mul", "h2", 8.0, 50}};
  e.Seed(samples);
  EXPECT_DOUBLE_EQ(e.Predict("mul", "h1"), 4.5);  // 5 and 4 kept
  EXPECT_DOUBLE_EQ(e.Predict("mul", "h2"), 8.0);
  e.Observe("mul", "h1", 6.0);  // pushes out the oldest kept (4)
  EXPECT_DOUBLE_EQ(e.Predict("mul", "h1"), 5.5);
}

TEST(ExecTimeEstimatorTest, BadDurationsAreIgnored) {
  ExecTimeEstimator e;
  e.Observe("mul", "h1", 2.0);
  e.Observe("mul", "h1", -1.0);
  e.Observe("mul", "h1", std::numeric_limits<double>::quiet_NaN());
  e.Observe("mul", "h1", std::numeric_limits<double>::infinity());
  EXPECT_DOUBLE_EQ(e.Predict("mul", "h1"), 2.0);
  EXPECT_EQ(e.SampleCount(0, 0), 1);
}

}  // namespace
}  // namespace gs
