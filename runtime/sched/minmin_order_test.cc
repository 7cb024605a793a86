#include "runtime/sched/minmin_order.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
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

// Rounds that walk part of the queue, place some of the tasks walked and
// add others at the end: each walk (and its works) is that of an order
// sorted afresh on the same queue. The kept order reuses the last round's
// places for the front it walks again.
TEST(MinMinOrderTest, KeptWalksAreFreshWalksOverManyRounds) {
  std::mt19937_64 rng(11);
  for (int run = 0; run < 50; ++run) {
    WorkPredictor p;
    for (int op = 0; op < 40; ++op)
      p.work.push_back(rng() % 5 == 0 ? -1 : static_cast<Seconds>(rng() % 12));
    std::vector<ReadyTask> queue;
    TaskId next = 0;
    auto add = [&](size_t n) {
      for (size_t i = 0; i < n; ++i, ++next)
        queue.push_back({next, static_cast<OpId>(rng() % 40), {}});
    };
    add(1 + rng() % 60);
    MinMinOrder kept;
    for (int round = 0; round < 40 && !queue.empty(); ++round) {
      kept.Update(queue, p);
      MinMinOrder fresh;
      fresh.Update(queue, p);
      const size_t steps = 1 + rng() % queue.size();
      std::vector<uint32_t> walked;
      for (size_t i = 0; i < steps; ++i) {
        uint32_t a, b;
        Seconds wa, wb;
        const auto na = kept.Walk(&a, &wa), nb = fresh.Walk(&b, &wb);
        ASSERT_EQ(na, nb) << "run " << run << " round " << round;
        if (na != MinMinOrder::Next::kTask) break;
        ASSERT_EQ(a, b) << "run " << run << " round " << round;
        ASSERT_EQ(wa, wb);
        walked.push_back(a);
      }
      // Some walked tasks start; the queue loses them, keeping its order.
      std::vector<uint32_t> placed;
      for (uint32_t i : walked)
        if (rng() % 3 == 0) placed.push_back(i);
      for (uint32_t i : placed) kept.Placed(i);
      std::sort(placed.rbegin(), placed.rend());
      for (uint32_t i : placed) queue.erase(queue.begin() + i);
      if (rng() % 4 == 0) add(rng() % 5);
    }
    EXPECT_EQ(kept.sorts(), 1u) << "run " << run;
  }
}

}  // namespace
}  // namespace gs
