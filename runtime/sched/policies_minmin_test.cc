#include "runtime/sched/policies_minmin.h"

#include <gtest/gtest.h>

#include <map>

namespace gs {
namespace {

class TablePredictor : public Predictor {
 public:
  std::map<std::pair<OpId, HostId>, Seconds> et;
  Seconds ExecTime(OpId op, HostId h) const override {
    auto it = et.find({op, h});
    return it == et.end() ? 1.0 : it->second;
  }
  Seconds TransferTime(TaskId, HostId) const override { return 0; }
};

std::vector<HostState> Hosts(std::initializer_list<int> slots) {
  std::vector<HostState> hosts;
  for (int s : slots) hosts.push_back(HostState{s, true, {}});
  return hosts;
}

TEST(MinMinTest, ShortestMinimumCompletionFirst) {
  // Times per (task, host): t0 {4, 6}, t1 {1, 3}, t2 {2, 1}.
  TablePredictor p;
  p.et = {{{0, 0}, 4}, {{0, 1}, 6}, {{1, 0}, 1},
          {{1, 1}, 3}, {{2, 0}, 2}, {{2, 1}, 1}};
  auto hosts = Hosts({1, 1});
  SlotBoard board({0, &hosts, &p});
  std::vector<ReadyTask> tasks = {{10, 0}, {11, 1}, {12, 2}};
  auto steps = MinMinMap(tasks, board, p, /*only_while_free=*/false);
  ASSERT_EQ(steps.size(), 3u);
  // t1 and t2 both end at 1 at best: the earlier one (t1) goes first.
  EXPECT_EQ(steps[0].task_index, 1u);
  EXPECT_EQ(steps[0].host, 0u);
  EXPECT_EQ(steps[1].task_index, 2u);
  EXPECT_EQ(steps[1].host, 1u);
  EXPECT_EQ(steps[2].task_index, 0u);  // 1 + 4 on host 0 beats 1 + 6
  EXPECT_EQ(steps[2].host, 0u);
  EXPECT_DOUBLE_EQ(steps[2].end, 5);
  EXPECT_TRUE(steps[0].starts_now);
  EXPECT_TRUE(steps[1].starts_now);
  EXPECT_FALSE(steps[2].starts_now);
}

TEST(MinMinTest, EqualTasksTieToTheEarlierTaskAndLowestHost) {
  TablePredictor p;  // every time 1
  auto hosts = Hosts({1, 1});
  SlotBoard board({0, &hosts, &p});
  std::vector<ReadyTask> tasks = {{0, 0}, {1, 1}, {2, 2}};
  auto steps = MinMinMap(tasks, board, p, false);
  ASSERT_EQ(steps.size(), 3u);
  EXPECT_EQ(steps[0].task_index, 0u);
  EXPECT_EQ(steps[0].host, 0u);
  EXPECT_EQ(steps[1].task_index, 1u);
  EXPECT_EQ(steps[1].host, 1u);
  EXPECT_EQ(steps[2].host, 0u);
  EXPECT_DOUBLE_EQ(steps[2].end, 2);
}

TEST(MinMinTest, PlaceStartsOnlyWhatFitsNowAndKeepsTheRestReady) {
  TablePredictor p;
  p.et = {{{0, 0}, 9}, {{0, 1}, 9}};  // op 0 long, others 1
  auto hosts = Hosts({1, 1});
  auto policy = MakePolicy("min-min");
  ASSERT_TRUE(policy.ok());
  EXPECT_EQ((*policy)->name(), "min-min");
  Scheduler s(std::move(policy).value());
  s.AddReady(100, 0);  // long task first in arrival order
  s.AddReady(101, 1);
  s.AddReady(102, 1);
  auto placed = s.Schedule({0, &hosts, &p});
  // Min-Min starts the two short tasks; the long one waits for a slot.
  ASSERT_EQ(placed.size(), 2u);
  EXPECT_EQ(placed[0].task, 101u);
  EXPECT_EQ(placed[0].host, 0u);
  EXPECT_EQ(placed[1].task, 102u);
  EXPECT_EQ(placed[1].host, 1u);
  EXPECT_EQ(s.num_ready(), 1u);
}

TEST(MinMinTest, BusyHostsCountAndUnusableOnesAreSkipped) {
  TablePredictor p;
  auto hosts = Hosts({1, 1, 1});
  hosts[0].usable = false;
  hosts[1].busy_until = {5};
  auto policy = MakePolicy("min-min");
  ASSERT_TRUE(policy.ok());
  Scheduler s(std::move(policy).value());
  s.AddReady(0, 0);
  s.AddReady(1, 0);
  auto placed = s.Schedule({0, &hosts, &p});
  ASSERT_EQ(placed.size(), 1u);  // host 2 now; the other would wait
  EXPECT_EQ(placed[0].host, 2u);
  EXPECT_EQ(placed[0].task, 0u);
}

TEST(MinMinTest, NoUsableHostMapsNothing) {
  TablePredictor p;
  auto hosts = Hosts({1});
  hosts[0].usable = false;
  SlotBoard board({0, &hosts, &p});
  EXPECT_TRUE(
      MinMinMap(std::vector<ReadyTask>{{0, 0}}, board, p, false).empty());
}

}  // namespace
}  // namespace gs
