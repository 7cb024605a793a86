#include "sim/experiments/sim_reliability.h"

#include <gtest/gtest.h>

#include <map>

#include "runtime/history/history.h"
#include "tests/support/temp_dir.h"

namespace gs {
namespace {

double Value(const SimRow& row, const std::string& name) {
  for (const auto& [n, v] : row.values)
    if (n == name) return v;
  ADD_FAILURE() << "no " << name << " in " << row.label;
  return 0;
}

TEST(SimReliabilityTest, ChainsGiveEachHostItsAvailability) {
  std::vector<ReliabilityHost> hosts = {{"a", 1.0}, {"b", 0.75}};
  auto specs = ReliabilitySimHosts(hosts, 4, 100);
  ASSERT_EQ(specs.size(), 2u);
  EXPECT_FALSE(specs[0].markov.has_value());  // never fails
  ASSERT_TRUE(specs[1].markov.has_value());
  const auto& p = specs[1].markov->p;
  // Long-run UP share of the two-state chain: down->up / (both rates).
  const double up = p[2][0] / (p[0][2] + p[2][0]);
  EXPECT_NEAR(up, 0.75, 1e-12);
  EXPECT_NEAR(1 / p[2][0], 100, 1e-9);  // mean DOWN time = mttr
  EXPECT_EQ(specs[1].slots, 4);
}

// Table 1's hosts and a history filled by `learn` rank-blind runs.
class LearnedHistoryTest : public ::testing::Test {
 protected:
  void Learn(int learn) {
    o.learn_runs = learn;
    ASSERT_TRUE(FillHistory(hosts, o, history).ok());
  }
  TempDir dir;
  const std::string history = dir.path() + "/history.db";
  const std::vector<ReliabilityHost> hosts = Paper004Hosts();
  ReliabilityOptions o;
};

TEST_F(LearnedHistoryTest, TableOneRanksTheReliableHostFirst) {
  Learn(10);
  auto rows = Table1FromHistory(hosts, o.mean, o.rank, history);
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  ASSERT_EQ(rows->size(), 4u);
  std::map<std::string, SimRow> by;
  for (const SimRow& r : *rows) by[r.label] = r;
  const SimRow& fs1 = by["fs1.das2.liacs.nl"];        // availability 1.00
  const SimRow& fs3 = by["fs3.das2.ewi.tudelft.nl"];  // 0.61
  EXPECT_EQ(Value(fs1, "distrust"), 0);
  EXPECT_EQ(Value(fs1, "availability"), 1);
  EXPECT_GT(Value(fs1, "checks"), 0);  // its connections were recorded
  EXPECT_GT(Value(fs3, "distrust"), 0);
  EXPECT_LT(Value(fs3, "availability"), 1);
  EXPECT_EQ(Value(fs1, "rrank"), 4);  // the most reliable of four
  EXPECT_LT(Value(fs3, "rrank"), 4);
  // The fastest host (fs0, speed 1.5, short queue) has the best prank.
  EXPECT_EQ(Value(by["fs0.das2.cs.vu.nl"], "prank"), 4);
  EXPECT_EQ(Value(fs1, "prank"), 1);
}

TEST_F(LearnedHistoryTest, EveryPolicyStartsFromAnUntouchedCopy) {
  Learn(2);
  auto before = Table1FromHistory(hosts, o.mean, o.rank, history);
  ASSERT_TRUE(before.ok());
  auto r = RunWithHistory(hosts, o, "grank", history);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->tasks_done, o.tasks);
  auto after = Table1FromHistory(hosts, o.mean, o.rank, history);
  ASSERT_TRUE(after.ok());
  for (size_t i = 0; i < before->size(); ++i)
    EXPECT_EQ((*before)[i].values, (*after)[i].values) << (*before)[i].label;
}

TEST_F(LearnedHistoryTest, GrankLosesFewerJobsThanMct) {
  // Paper 004's claim: the ranking keeps jobs off hosts that fail. The
  // unreliable hosts are the fast ones, so MCT prefers them.
  Learn(4);
  uint64_t lost[2] = {0, 0};
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    o.seed = seed;
    int i = 0;
    for (const char* policy : {"grank", "mct"}) {
      auto r = RunWithHistory(hosts, o, policy, history);
      ASSERT_TRUE(r.ok()) << r.status().message();
      EXPECT_EQ(r->tasks_done, o.tasks) << policy;
      lost[i++] += r->job_failures;
    }
  }
  EXPECT_LT(lost[0], lost[1]) << "grank " << lost[0] << ", mct " << lost[1];
}

}  // namespace
}  // namespace gs
