#include "adapters/batch/pilot_scaling.h"

#include <gtest/gtest.h>

#include <vector>

namespace gs {
namespace {

PilotLimits Limits(int floor, int max_pilots, int max_jobs = 0,
                   Seconds linger = 60) {
  return PilotLimits{floor, max_pilots, max_jobs, linger};
}

// `busy` serving pilots running a job each, no free slot.
PilotCensus Busy(int busy, int waiting, int pending = 0) {
  PilotCensus c;
  c.waiting_tasks = waiting;
  c.pending = pending;
  c.idle_for.assign(busy, -1);
  return c;
}

TEST(PilotScalingTest, GrowsByOneWhileTasksWaitForASlot) {
  PilotScaling s = DecidePilots(Busy(1, 5), Limits(1, 4));
  EXPECT_EQ(s.submit, 1);
  EXPECT_TRUE(s.retire.empty());
}

TEST(PilotScalingTest, NothingWaitingNothingAdded) {
  EXPECT_EQ(DecidePilots(Busy(1, 0), Limits(1, 4)).submit, 0);
}

TEST(PilotScalingTest, NoSecondSubmissionWhileOnePends) {
  PilotScaling s = DecidePilots(Busy(1, 50, /*pending=*/1), Limits(1, 8));
  EXPECT_EQ(s.submit, 0);
  // Once it serves (and is busy too), the next one goes.
  EXPECT_EQ(DecidePilots(Busy(2, 50), Limits(1, 8)).submit, 1);
}

TEST(PilotScalingTest, NoGrowthWhileASlotIsFree) {
  // Tasks that wait beside a free slot wait for something else (memory,
  // cores): another pilot of the same shape would not take them either.
  PilotCensus c = Busy(1, 3);
  c.free_slots = 1;
  EXPECT_EQ(DecidePilots(c, Limits(1, 4)).submit, 0);
}

TEST(PilotScalingTest, CappedByMaxPilots) {
  EXPECT_EQ(DecidePilots(Busy(2, 10), Limits(1, 2)).submit, 0);
  EXPECT_EQ(DecidePilots(Busy(1, 10), Limits(1, 2)).submit, 1);
}

TEST(PilotScalingTest, CappedByMaxJobs) {
  EXPECT_EQ(DecidePilots(Busy(3, 10), Limits(1, 8, /*max_jobs=*/3)).submit, 0);
  EXPECT_EQ(DecidePilots(Busy(2, 10), Limits(1, 8, /*max_jobs=*/3)).submit, 1);
}

TEST(PilotScalingTest, FloorReplacedEvenWithoutDemand) {
  PilotCensus c;  // every pilot lost
  EXPECT_EQ(DecidePilots(c, Limits(2, 4)).submit, 2);
  c.pending = 1;
  EXPECT_EQ(DecidePilots(c, Limits(2, 4)).submit, 1);
}

TEST(PilotScalingTest, IdlePastLingerLeavesLongestIdleFirst) {
  PilotCensus c;
  c.idle_for = {-1, 70, 90, 10};
  c.free_slots = 3;
  PilotScaling s = DecidePilots(c, Limits(1, 4, 0, /*linger=*/60));
  EXPECT_EQ(s.submit, 0);
  EXPECT_EQ(s.retire, (std::vector<size_t>{2, 1}));
}

TEST(PilotScalingTest, FloorKeptWhenAllIdle) {
  PilotCensus c;
  c.idle_for = {100, 200, 300};
  c.free_slots = 3;
  PilotScaling s = DecidePilots(c, Limits(2, 4, 0, 60));
  EXPECT_EQ(s.retire, (std::vector<size_t>{2}));
  // A pending pilot counts towards the floor too.
  c.pending = 1;
  EXPECT_EQ(DecidePilots(c, Limits(2, 4, 0, 60)).retire,
            (std::vector<size_t>{2, 1}));
}

TEST(PilotScalingTest, NoRetirementWhileTasksWait) {
  // Waiting tasks are about to be placed on the idle pilot: it stays.
  PilotCensus c;
  c.waiting_tasks = 2;
  c.idle_for = {-1, 500};
  c.free_slots = 1;
  PilotScaling s = DecidePilots(c, Limits(1, 4, 0, 60));
  EXPECT_TRUE(s.retire.empty());
  EXPECT_EQ(s.submit, 0);
}

TEST(PilotScalingTest, NoFlappingOverABurstAndItsEnd) {
  const PilotLimits limits = Limits(1, 3, 0, /*linger=*/5);
  // Burst: one busy pilot, tasks waiting -> one more.
  EXPECT_EQ(DecidePilots(Busy(1, 8), limits).submit, 1);
  // It is queued: nothing more, nothing less.
  PilotScaling pending = DecidePilots(Busy(1, 8, 1), limits);
  EXPECT_EQ(pending.submit, 0);
  EXPECT_TRUE(pending.retire.empty());
  // Burst over, both idle but not for long: both stay.
  PilotCensus after;
  after.idle_for = {1, 2};
  after.free_slots = 2;
  PilotScaling early = DecidePilots(after, limits);
  EXPECT_EQ(early.submit, 0);
  EXPECT_TRUE(early.retire.empty());
  // Past the linger, one leaves; the floor stays and nothing is added.
  after.idle_for = {6, 7};
  PilotScaling late = DecidePilots(after, limits);
  EXPECT_EQ(late.submit, 0);
  EXPECT_EQ(late.retire, (std::vector<size_t>{1}));
  // With one pilot idle at the floor, nothing changes however long.
  PilotCensus floor;
  floor.idle_for = {1000};
  floor.free_slots = 1;
  PilotScaling rest = DecidePilots(floor, limits);
  EXPECT_EQ(rest.submit, 0);
  EXPECT_TRUE(rest.retire.empty());
}

TEST(PilotScalingTest, FixedCountWhenMaxPilotsIsTheFloor) {
  // The default (max_pilots = pilots): no growth, no linger.
  EXPECT_EQ(DecidePilots(Busy(2, 100), Limits(2, 2)).submit, 0);
  PilotCensus c;
  c.idle_for = {1000, 1000};
  c.free_slots = 2;
  EXPECT_TRUE(DecidePilots(c, Limits(2, 2)).retire.empty());
}

}  // namespace
}  // namespace gs
