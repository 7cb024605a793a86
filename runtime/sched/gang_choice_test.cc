#include "runtime/sched/gang_choice.h"

#include <gtest/gtest.h>

#include <vector>

namespace gs {
namespace {

HostState Host(int slots, int busy_cores) {
  HostState s;
  s.slots = slots;
  if (busy_cores > 0) s.AddBusy(100, Need{busy_cores});
  return s;
}

TEST(GangChoiceTest, TakesTheMembersWithMostFreeCoresLeaderFirst) {
  // Host 0 has 1 free core, 1 and 2 have 2 and 4: a 2-node gang of 2
  // cores each goes on 2 (the freest) and 1.
  std::vector<HostState> states = {Host(2, 1), Host(2, 0), Host(4, 0)};
  EXPECT_EQ(ChooseGang(states, {{0, 1, 2}}, 2, Need{2}, nullptr),
            (std::vector<HostId>{2, 1}));
}

TEST(GangChoiceTest, AllOrNothing) {
  // Only one member can start 2 cores now: no half gang.
  std::vector<HostState> states = {Host(2, 1), Host(2, 0), Host(2, 2)};
  EXPECT_TRUE(ChooseGang(states, {{0, 1, 2}}, 2, Need{2}, nullptr).empty());
  // Once it holds them, the next gang finds the rest taken.
  states = {Host(2, 0), Host(2, 0), Host(2, 0)};
  std::vector<HostId> first =
      ChooseGang(states, {{0, 1, 2}}, 2, Need{2}, nullptr);
  ASSERT_EQ(first.size(), 2u);
  for (HostId h : first) states[h].AddBusy(100, Need{2});
  EXPECT_TRUE(ChooseGang(states, {{0, 1, 2}}, 2, Need{2}, nullptr).empty());
}

TEST(GangChoiceTest, OneGroupOnlyAndItsAllowedUsableMembers) {
  // Two groups of two hosts, one free host in each: the gang may not mix
  // them (they are different allocations).
  std::vector<HostState> states = {Host(2, 2), Host(2, 0), Host(2, 0),
                                   Host(2, 2)};
  const std::vector<std::vector<HostId>> groups = {{0, 1}, {2, 3}};
  EXPECT_TRUE(ChooseGang(states, groups, 2, Need{2}, nullptr).empty());
  states[3] = Host(2, 0);
  EXPECT_EQ(ChooseGang(states, groups, 2, Need{2}, nullptr),
            (std::vector<HostId>{2, 3}));
  // A member lost, or one the operation is kept from, does not count.
  states[3].usable = false;
  EXPECT_TRUE(ChooseGang(states, groups, 2, Need{2}, nullptr).empty());
  states[3].usable = true;
  const HostMask not_three = {true, true, true, false};
  EXPECT_TRUE(ChooseGang(states, groups, 2, Need{2}, &not_three).empty());
}

TEST(GangChoiceTest, AWaitingGangWaitsForTheFreestMembersItCouldUse) {
  // Nothing can start 2 cores on 2 hosts now; hosts 1 and 2 are the
  // freest of those that could ever hold 2 (host 3 has 1 core).
  std::vector<HostState> states = {Host(2, 2), Host(2, 1), Host(2, 0),
                                   Host(1, 0)};
  EXPECT_EQ(GangToWaitFor(states, {{0, 1, 2, 3}}, 2, Need{2}, nullptr),
            (std::vector<HostId>{2, 1}));
  EXPECT_TRUE(
      GangToWaitFor(states, {{0, 1, 2, 3}}, 4, Need{2}, nullptr).empty());
}

TEST(GangChoiceTest, SomeGangFitsReadsCapacityNotLoad) {
  std::vector<HostState> states = {Host(2, 2), Host(2, 2), Host(1, 0)};
  // Busy now, but two members could hold 2 cores each once free.
  EXPECT_TRUE(SomeGangFits(states, {{0, 1, 2}}, 2, Need{2}, nullptr));
  EXPECT_FALSE(SomeGangFits(states, {{0, 1, 2}}, 3, Need{2}, nullptr));
  EXPECT_FALSE(SomeGangFits(states, {{0, 1, 2}}, 2, Need{3}, nullptr));
  const HostMask not_one = {true, false, true};
  EXPECT_FALSE(SomeGangFits(states, {{0, 1, 2}}, 2, Need{2}, &not_one));
}

}  // namespace
}  // namespace gs
