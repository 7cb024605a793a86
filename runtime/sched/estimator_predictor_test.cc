// The engine's predictor: learnt times by the engine's numbering, given
// times where an oracle knows them, transfer times from the engine.
#include "runtime/sched/estimator_predictor.h"

#include <gtest/gtest.h>

namespace gs {
namespace {

const gs_operation kFirst = {"first", GS_TYPE_VOID, 0, nullptr, 0, 0, 0};
const gs_operation kSecond = {"second", GS_TYPE_VOID, 0, nullptr, 0, 0, 0};

// Knows "second" only: 10 s on host 0, 20 s on host 1.
class SecondOnly : public ExecOracle {
 public:
  int64_t OpIndex(std::string_view name) const override {
    return name == "second" ? 7 : -1;
  }
  Seconds Time(int64_t op, uint32_t host) const override {
    return op == 7 ? 10.0 * (host + 1) : -1;
  }
};

TEST(EstimatorPredictorTest, LearnsPerOperationAndHost) {
  OperationTable ops;
  EstimatorPredictor p(&ops);
  p.AddHost("a");
  p.AddHost("b");
  OpId first = ops.Intern(&kFirst);
  EXPECT_EQ(p.ExecTime(first, 0), 0) << "never seen: the default";
  p.Observe(first, 1, 4);
  p.Observe(first, 1, 6);
  EXPECT_EQ(p.ExecTime(first, 1), 5);
  EXPECT_EQ(p.ExecTime(first, 0), 5) << "seen elsewhere: that host's mean";
  // An operation that appears later gets its own numbers.
  OpId second = ops.Intern(&kSecond);
  p.Observe(second, 0, 1);
  EXPECT_EQ(p.ExecTime(second, 0), 1);
  EXPECT_EQ(p.ExecTime(first, 1), 5);
}

TEST(EstimatorPredictorTest, SeedsFromEarlierRunsByName) {
  OperationTable ops;
  EstimatorPredictor p(&ops);
  p.AddHost("a");
  p.AddHost("b");
  std::vector<ExecTimeSample> samples = {{"first", "b", 8, 0}};
  p.Seed(samples);
  EXPECT_EQ(p.ExecTime(ops.Intern(&kFirst), 1), 8);
}

TEST(EstimatorPredictorTest, OracleTimesWinWhereTheOracleKnows) {
  OperationTable ops;
  EstimatorPredictor p(&ops);
  p.AddHost("a");
  p.AddHost("b");
  p.set_oracle(std::make_shared<SecondOnly>());
  OpId first = ops.Intern(&kFirst);
  OpId second = ops.Intern(&kSecond);
  p.Observe(first, 0, 3);
  p.Observe(second, 0, 3);
  EXPECT_EQ(p.ExecTime(second, 0), 10);
  EXPECT_EQ(p.ExecTime(second, 1), 20);
  EXPECT_EQ(p.ExecTime(first, 0), 3) << "unknown to the oracle: learnt";
}

TEST(EstimatorPredictorTest, TransferTimeComesFromTheEngine) {
  OperationTable ops;
  EstimatorPredictor p(&ops);
  p.AddHost("a");
  EXPECT_EQ(p.TransferTime(3, 0), 0) << "no function: nothing to move";
  p.set_transfer([](TaskId t, HostId h) { return t * 10.0 + h; });
  EXPECT_EQ(p.TransferTime(3, 0), 30);
}

// The stamp lets MCT replay a round (FinishIndex): it must move with
// everything that changes a time, and be 0 while transfers may move alone.
TEST(EstimatorPredictorTest, StampMovesWithLearntTimesAndTransfers) {
  OperationTable ops;
  EstimatorPredictor p(&ops);
  p.AddHost("a");
  p.set_oracle(std::make_shared<SecondOnly>());
  OpId first = ops.Intern(&kFirst);
  OpId second = ops.Intern(&kSecond);
  EXPECT_EQ(p.stamp(), 0u) << "without the engine's word: not known";
  bool stable = false;
  p.set_transfers_stable([&] { return stable; });
  EXPECT_EQ(p.stamp(), 0u) << "a start delay may move";
  stable = true;
  const uint64_t s0 = p.stamp();
  EXPECT_NE(s0, 0u);
  p.Observe(second, 0, 3);
  EXPECT_EQ(p.stamp(), s0) << "the oracle's times do not change";
  p.Observe(first, 0, 3);
  const uint64_t s1 = p.stamp();
  EXPECT_NE(s1, s0) << "a learnt time changed";
  p.TransfersChanged();
  EXPECT_NE(p.stamp(), s1);
  EXPECT_NE(p.stamp(), 0u);
}

}  // namespace
}  // namespace gs
