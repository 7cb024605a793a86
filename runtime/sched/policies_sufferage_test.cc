#include "runtime/sched/policies_sufferage.h"

#include <gtest/gtest.h>

namespace gs {
namespace {

// time[op][host]
class TablePredictor : public Predictor {
 public:
  explicit TablePredictor(std::vector<std::vector<Seconds>> t)
      : t_(std::move(t)) {}
  Seconds ExecTime(OpId op, HostId h) const override { return t_[op][h]; }
  Seconds TransferTime(TaskId, HostId) const override { return 0; }

 private:
  std::vector<std::vector<Seconds>> t_;
};

// A: 2 or 3; B: 3 or 10. Min-Min serves A first and leaves B to wait
// behind it on host 0 (makespan 5); Sufferage serves B first, the task
// with more to lose, and A goes to host 1 (makespan 3).
TEST(SufferageTest, TheTaskThatWouldSufferMostGoesFirst) {
  TablePredictor pred({{2, 3}, {3, 10}});
  std::vector<HostState> hosts(2);
  SchedulingInput in{0, &hosts, &pred};
  std::vector<ReadyTask> tasks = {{0, 0}, {1, 1}};
  SlotBoard board(in);
  auto steps = SufferageMap(tasks, board, pred, false);
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0].task_index, 1u);
  EXPECT_EQ(steps[0].host, 0u);
  EXPECT_EQ(steps[1].task_index, 0u);
  EXPECT_EQ(steps[1].host, 1u);
  EXPECT_EQ(std::max(steps[0].end, steps[1].end), 3);
  SlotBoard board2(in);
  auto mm = MinMinMap(tasks, board2, pred, false);
  EXPECT_EQ(std::max(mm[0].end, mm[1].end), 5);
}

TEST(SufferageTest, ThePolicyStartsWhatHasAFreeSlot) {
  TablePredictor pred({{2, 3}, {3, 10}, {1, 1}});
  std::vector<HostState> hosts(2);
  hosts[1].busy_until = {4};  // host 1 is busy
  auto policy = MakeSufferagePolicy();
  EXPECT_EQ(policy->name(), "sufferage");
  SchedulingInput in{0, &hosts, &pred};
  std::vector<Placement> out;
  policy->Place(std::vector<ReadyTask>{{0, 0}, {1, 1}, {2, 2}}, in, &out);
  ASSERT_EQ(out.size(), 1u);  // one free slot, on host 0
  EXPECT_EQ(out[0].host, 0u);
}

}  // namespace
}  // namespace gs
