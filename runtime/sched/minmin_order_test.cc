#include "runtime/sched/minmin_order.h"

#include <gtest/gtest.h>

#include <vector>

namespace gs {
namespace {

class WorkPredictor : public Predictor {
 public:
  std::vector<Seconds> work;  // by op; -1: not known
  uint64_t stamp_value = 1;
  Seconds ExecTime(OpId op, HostId) const override { return work[op]; }
  Seconds TransferTime(TaskId, HostId) const override { return 0; }
  Seconds Work(OpId op) const override { return work[op]; }
  uint64_t stamp() const override { return stamp_value; }
};

// The whole walk: indices into the queue.
std::vector<uint32_t> WalkAll(MinMinOrder& order) {
  std::vector<uint32_t> walk;
  uint32_t index;
  Seconds work;
  while (order.Walk(&index, &work) == MinMinOrder::Next::kTask)
    walk.push_back(index);
  return walk;
}

TEST(MinMinOrderTest, WalksByWorkThenQueueOrderUnknownWorkFirst) {
  WorkPredictor p;
  p.work = {5, 2, -1, 5};
  std::vector<ReadyTask> queue = {
      {10, 0, {}}, {11, 1, {}}, {12, 2, {}}, {13, 3, {}}};
  MinMinOrder order;
  order.Update(queue, p);
  EXPECT_EQ(WalkAll(order), (std::vector<uint32_t>{2, 1, 0, 3}));
}

TEST(MinMinOrderTest, KeptWhileTasksLeaveAsPlacedAndOthersJoinAtTheEnd) {
  WorkPredictor p;
  p.work = {5, 2, 7, 1, 3};
  std::vector<ReadyTask> queue = {{10, 0, {}}, {11, 1, {}}, {12, 2, {}}};
  MinMinOrder order;
  order.Update(queue, p);
  EXPECT_EQ(WalkAll(order), (std::vector<uint32_t>{1, 0, 2}));
  order.Placed(1);  // task 11 starts and leaves the queue
  queue = {{10, 0, {}}, {12, 2, {}}, {13, 3, {}}, {14, 4, {}}};
  order.Update(queue, p);
  EXPECT_EQ(WalkAll(order), (std::vector<uint32_t>{2, 3, 0, 1}));
  EXPECT_EQ(order.sorts(), 1u);
  order.Placed(0);
  order.Placed(3);
  queue = {{12, 2, {}}, {13, 3, {}}};
  order.Update(queue, p);
  EXPECT_EQ(WalkAll(order), (std::vector<uint32_t>{1, 0}));
  EXPECT_EQ(order.sorts(), 1u);
}

TEST(MinMinOrderTest, SortsAfreshWhenATaskLeavesUntold) {
  WorkPredictor p;
  p.work = {5, 2, 7, 1};
  std::vector<ReadyTask> queue = {{10, 0, {}}, {11, 1, {}}, {12, 2, {}}};
  MinMinOrder order;
  order.Update(queue, p);
  WalkAll(order);
  // Task 11 removed (cancelled), task 13 added: as long as before.
  queue = {{10, 0, {}}, {12, 2, {}}, {13, 3, {}}};
  order.Update(queue, p);
  EXPECT_EQ(order.sorts(), 2u);
  EXPECT_EQ(WalkAll(order), (std::vector<uint32_t>{2, 0, 1}));
}

TEST(MinMinOrderTest, SortsAfreshWhenTimesMayHaveChanged) {
  WorkPredictor p;
  p.work = {5, 2};
  std::vector<ReadyTask> queue = {{10, 0, {}}, {11, 1, {}}};
  MinMinOrder order;
  order.Update(queue, p);
  p.work = {1, 2};
  ++p.stamp_value;
  order.Update(queue, p);
  EXPECT_EQ(order.sorts(), 2u);
  EXPECT_EQ(WalkAll(order), (std::vector<uint32_t>{0, 1}));
  p.stamp_value = 0;  // not known: every round
  order.Update(queue, p);
  order.Update(queue, p);
  EXPECT_EQ(order.sorts(), 4u);
}

TEST(MinMinOrderTest, AWalkThatMeetsAnotherTaskBreaks) {
  WorkPredictor p;
  p.work = {5, 2, 7};
  std::vector<ReadyTask> queue = {{10, 0, {}}, {11, 1, {}}, {12, 2, {}}};
  MinMinOrder order;
  order.Update(queue, p);
  WalkAll(order);
  // The last task is where it was, but another took the first's place.
  queue = {{15, 0, {}}, {11, 1, {}}, {12, 2, {}}};
  order.Update(queue, p);
  EXPECT_EQ(order.sorts(), 1u);
  uint32_t index;
  Seconds work;
  ASSERT_EQ(order.Walk(&index, &work), MinMinOrder::Next::kTask);  // 11
  EXPECT_EQ(order.Walk(&index, &work), MinMinOrder::Next::kBroken);
}

}  // namespace
}  // namespace gs
