#include "runtime/sched/learned_availability.h"

#include <gtest/gtest.h>

namespace gs {
namespace {

constexpr int kUp = 0, kRec = 1, kDown = 2;

TEST(LearnedAvailabilityTest, AHostNeverSeenIsAlwaysUp) {
  LearnedAvailability model(5);
  EXPECT_EQ(model.slot(), 5);
  EXPECT_EQ(model.state(3), HostAvail::kUp);
  EXPECT_EQ(model.chain(3).p[kUp][kUp], 1);
  EXPECT_EQ(StepOf(model.chain(3)).p, 1);
  EXPECT_EQ(model.tasks_per_configuration(), 0u);
}

TEST(LearnedAvailabilityTest, TransitionsAreCountedBetweenObservations) {
  LearnedAvailability model(1);
  // UP UP UP RECLAIMED UP DOWN DOWN UP: from UP 2 x UP, 1 x REC, 1 x DOWN
  // (+1 prior UP); from REC 1 x UP (+1 prior REC); from DOWN 1 x DOWN,
  // 1 x UP (+1 prior DOWN).
  for (HostAvail s :
       {HostAvail::kUp, HostAvail::kUp, HostAvail::kUp, HostAvail::kReclaimed,
        HostAvail::kUp, HostAvail::kDown, HostAvail::kDown, HostAvail::kUp}) {
    model.Observe(0, s);
  }
  EXPECT_EQ(model.observations(0), 8u);
  EXPECT_EQ(model.state(0), HostAvail::kUp);
  const AvailabilityChain& c = model.chain(0);
  EXPECT_DOUBLE_EQ(c.p[kUp][kUp], 3.0 / 5);
  EXPECT_DOUBLE_EQ(c.p[kUp][kRec], 1.0 / 5);
  EXPECT_DOUBLE_EQ(c.p[kUp][kDown], 1.0 / 5);
  EXPECT_DOUBLE_EQ(c.p[kRec][kUp], 1.0 / 2);
  EXPECT_DOUBLE_EQ(c.p[kRec][kRec], 1.0 / 2);
  EXPECT_DOUBLE_EQ(c.p[kDown][kDown], 2.0 / 3);
  EXPECT_DOUBLE_EQ(c.p[kDown][kUp], 1.0 / 3);
  // Other hosts are untouched.
  EXPECT_EQ(model.chain(1).p[kUp][kUp], 1);
}

TEST(LearnedAvailabilityTest, TheHistorysUnansweredChecksAreFailures) {
  LearnedAvailability model(1);
  model.Seed(0, 99, 9);  // 90 answered, 9 not, + 1 prior
  EXPECT_DOUBLE_EQ(model.chain(0).p[kUp][kDown], 9.0 / 100);
  EXPECT_DOUBLE_EQ(model.chain(0).p[kDown][kUp], 9.0 / 10);
  // A less reliable host has a smaller probability of success.
  model.Seed(1, 99, 0);
  EXPECT_LT(StepOf(model.chain(0)).p, StepOf(model.chain(1)).p);
  // Nonsense counts are ignored.
  model.Seed(2, 5, 7);
  EXPECT_EQ(model.chain(2).p[kUp][kUp], 1);
  model.Seed(2, 5, 0, -1);
  EXPECT_EQ(model.chain(2).p[kUp][kUp], 1);
}

TEST(LearnedAvailabilityTest, TheHistorysHostLossesAreFailuresToo) {
  LearnedAvailability model(1);
  // 90 answered checks, 9 unanswered and 10 losses recorded: 19 of 110
  // transitions from UP (with the prior one UP->UP) go DOWN.
  model.Seed(0, 99, 9, 10);
  EXPECT_DOUBLE_EQ(model.chain(0).p[kUp][kDown], 19.0 / 110);
  EXPECT_DOUBLE_EQ(model.chain(0).p[kDown][kUp], 19.0 / 20);
  // Losses alone (no checks recorded) count.
  model.Seed(1, 0, 0, 3);
  EXPECT_DOUBLE_EQ(model.chain(1).p[kUp][kDown], 3.0 / 4);
}

TEST(LearnedAvailabilityTest, ChangesBetweenSlotsCountOnceEach) {
  LearnedAvailability model(1);
  model.Observe(0, HostAvail::kUp);
  // Lost (the slot's observation then agrees: no second transition), back.
  model.ObserveChange(0, HostAvail::kDown);
  model.ObserveChange(0, HostAvail::kDown);
  model.ObserveChange(0, HostAvail::kUp);
  EXPECT_EQ(model.observations(0), 3u);
  EXPECT_EQ(model.state(0), HostAvail::kUp);
  EXPECT_DOUBLE_EQ(model.chain(0).p[kUp][kDown], 1.0 / 2);
  EXPECT_DOUBLE_EQ(model.chain(0).p[kDown][kUp], 1.0 / 2);
  // A host lost before its first slot left UP for DOWN.
  model.ObserveChange(1, HostAvail::kDown);
  EXPECT_EQ(model.state(1), HostAvail::kDown);
  EXPECT_DOUBLE_EQ(model.chain(1).p[kUp][kDown], 1.0 / 2);
}

}  // namespace
}  // namespace gs
