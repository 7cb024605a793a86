#include "runtime/sched/scheduler.h"

#include <gtest/gtest.h>

#include <map>

namespace gs {
namespace {

// Execution times from a table, transfers from another; no adapter at all.
class TablePredictor : public Predictor {
 public:
  std::map<std::pair<OpId, HostId>, Seconds> et;
  std::map<std::pair<TaskId, HostId>, Seconds> transfer;
  Seconds ExecTime(OpId op, HostId h) const override {
    auto it = et.find({op, h});
    return it == et.end() ? 1.0 : it->second;
  }
  Seconds TransferTime(TaskId t, HostId h) const override {
    auto it = transfer.find({t, h});
    return it == transfer.end() ? 0.0 : it->second;
  }
};

std::vector<HostState> Hosts(std::initializer_list<int> slots) {
  std::vector<HostState> hosts;
  for (int s : slots) hosts.push_back(HostState{s, true, {}});
  return hosts;
}

TEST(MctTest, FillsFreeSlotsInOrder) {
  TablePredictor p;
  auto hosts = Hosts({2});
  Scheduler s(MakeMctPolicy());
  for (TaskId t = 0; t < 5; ++t) s.AddReady(t, 0);
  auto placed = s.Schedule({0, &hosts, &p});
  ASSERT_EQ(placed.size(), 2u);
  EXPECT_EQ(placed[0].task, 0u);
  EXPECT_EQ(placed[1].task, 1u);
  EXPECT_EQ(s.num_ready(), 3u);
}

TEST(MctTest, PrefersTheHostThatFinishesFirst) {
  TablePredictor p;
  p.et[{0, 0}] = 10;  // host 0 slow
  p.et[{0, 1}] = 2;   // host 1 fast
  auto hosts = Hosts({1, 1});
  Scheduler s(MakeMctPolicy());
  s.AddReady(7, 0);
  auto placed = s.Schedule({0, &hosts, &p});
  ASSERT_EQ(placed.size(), 1u);
  EXPECT_EQ(placed[0].host, 1u);
  EXPECT_DOUBLE_EQ(placed[0].predicted_end, 2);
}

TEST(MctTest, CountsBacklogOfBusyHosts) {
  TablePredictor p;
  p.et[{0, 0}] = 3;
  p.et[{0, 1}] = 2;
  auto hosts = Hosts({1, 1});
  hosts[1].busy_until = {5};  // fast host busy until t=5: 5+2 > 0+3
  Scheduler s(MakeMctPolicy());
  s.AddReady(1, 0);
  auto placed = s.Schedule({0, &hosts, &p});
  ASSERT_EQ(placed.size(), 1u);
  EXPECT_EQ(placed[0].host, 0u);
}

TEST(MctTest, WaitsForABusyHostWhenThatIsFaster) {
  TablePredictor p;
  p.et[{0, 0}] = 100;
  p.et[{0, 1}] = 1;
  auto hosts = Hosts({1, 1});
  hosts[1].busy_until = {2};  // 2+1 beats 0+100
  Scheduler s(MakeMctPolicy());
  s.AddReady(1, 0);
  EXPECT_TRUE(s.Schedule({0, &hosts, &p}).empty());
  EXPECT_EQ(s.num_ready(), 1u);
}

TEST(MctTest, TransferTimeCounts) {
  TablePredictor p;
  p.transfer[{4, 0}] = 10;  // inputs of task 4 live on host 1
  auto hosts = Hosts({1, 1});
  Scheduler s(MakeMctPolicy());
  s.AddReady(4, 0);
  auto placed = s.Schedule({0, &hosts, &p});
  ASSERT_EQ(placed.size(), 1u);
  EXPECT_EQ(placed[0].host, 1u);
}

TEST(MctTest, SkipsUnusableHostsAndTiesGoToLowestIndex) {
  TablePredictor p;
  auto hosts = Hosts({1, 1, 1});
  hosts[0].usable = false;
  Scheduler s(MakeMctPolicy());
  s.AddReady(0, 0);
  auto placed = s.Schedule({0, &hosts, &p});
  ASSERT_EQ(placed.size(), 1u);
  EXPECT_EQ(placed[0].host, 1u);
}

TEST(MctTest, OverrunningJobKeepsItsSlot) {
  TablePredictor p;
  auto hosts = Hosts({1});
  hosts[0].busy_until = {3};  // predicted to end at 3; it is now 10
  Scheduler s(MakeMctPolicy());
  s.AddReady(0, 0);
  EXPECT_TRUE(s.Schedule({10, &hosts, &p}).empty());
}

TEST(MetTest, IgnoresBacklog) {
  TablePredictor p;
  p.et[{0, 0}] = 3;
  p.et[{0, 1}] = 2;
  auto hosts = Hosts({1, 1});
  hosts[1].busy_until = {5};
  Scheduler s(MakeMetPolicy());
  s.AddReady(1, 0);
  EXPECT_TRUE(s.Schedule({0, &hosts, &p}).empty());  // waits for host 1
}

TEST(PolicyTest, UnknownNameIsAClearError) {
  auto p = MakePolicy("fastest");
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("mct"), std::string::npos);
}

}  // namespace
}  // namespace gs

namespace gs {
namespace {

TEST(MctTest, UnknownTimesSpreadOverFreeHosts) {
  // Before anything is measured every prediction is 0: a tie everywhere.
  class Zero : public Predictor {
    Seconds ExecTime(OpId, HostId) const override { return 0; }
    Seconds TransferTime(TaskId, HostId) const override { return 0; }
  } zero;
  std::vector<HostState> hosts(3);
  hosts[0].busy_until = {0};  // host 0 busy, "ending" now
  Scheduler s(MakeMctPolicy());
  s.AddReady(0, 0);
  s.AddReady(1, 0);
  auto placed = s.Schedule({0, &hosts, &zero});
  ASSERT_EQ(placed.size(), 2u);
  EXPECT_EQ(placed[0].host, 1u);
  EXPECT_EQ(placed[1].host, 2u);
}

}  // namespace
}  // namespace gs
