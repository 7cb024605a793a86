#include "runtime/sched/policies_grank.h"

#include <gtest/gtest.h>

#include <map>

namespace gs {
namespace {

class TablePredictor : public Predictor {
 public:
  std::map<HostId, Seconds> et;
  Seconds ExecTime(OpId, HostId h) const override {
    auto it = et.find(h);
    return it == et.end() ? 1.0 : it->second;
  }
  Seconds TransferTime(TaskId, HostId) const override { return 0; }
};

std::vector<HostState> TwoFreeHosts() {
  std::vector<HostState> hosts(2);
  return hosts;
}

TEST(GrankTest, EqualSpeedGoesToTheMoreReliableHost) {
  TablePredictor p;
  GrankPolicy policy(RankOptions{});
  HostFacts flaky, solid;
  flaky.attempts = 10;
  flaky.not_answered = 5;  // availability 0.5
  flaky.distrust = 3;
  solid.attempts = 10;
  policy.SetReliability({flaky, solid});
  auto hosts = TwoFreeHosts();
  SchedulingInput in{0, &hosts, &p};
  SlotBoard board(in);
  EXPECT_EQ(policy.Choose({0, 0}, board, p).host, 1u);
}

TEST(GrankTest, WeightsDecideBetweenReliableAndFast) {
  TablePredictor p;
  p.et = {{0, 1.0}, {1, 50.0}};  // the unreliable host is much faster
  HostFacts flaky, solid;
  flaky.attempts = 10;
  flaky.not_answered = 5;
  solid.attempts = 10;
  auto hosts = TwoFreeHosts();
  SchedulingInput in{0, &hosts, &p};
  SlotBoard board(in);

  RankOptions reliability_first;
  reliability_first.alpha = 1.0;
  reliability_first.beta = 0.1;
  GrankPolicy a(reliability_first);
  a.SetReliability({flaky, solid});
  EXPECT_EQ(a.Choose({0, 0}, board, p).host, 1u);

  RankOptions speed_first;
  speed_first.alpha = 0.1;
  speed_first.beta = 1.0;
  GrankPolicy b(speed_first);
  b.SetReliability({flaky, solid});
  EXPECT_EQ(b.Choose({0, 0}, board, p).host, 0u);
}

TEST(GrankTest, SkipsUnusableHosts) {
  TablePredictor p;
  GrankPolicy policy(RankOptions{});
  auto hosts = TwoFreeHosts();
  hosts[1].usable = false;
  SchedulingInput in{0, &hosts, &p};
  SlotBoard board(in);
  EXPECT_EQ(policy.Choose({0, 0}, board, p).host, 0u);
}

TEST(GrankTest, IsKnownByName) {
  auto p = MakePolicy("grank");
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ((*p)->name(), "grank");
}

}  // namespace
}  // namespace gs
