#include "runtime/sched/implementation_choice.h"

#include <gtest/gtest.h>

namespace gs {
namespace {

HostState Host(int slots, double memory_gb = 0) {
  HostState h;
  h.slots = slots;
  h.memory_gb = memory_gb;
  return h;
}

TEST(ImplementationChoiceTest, SpareIsWhatRunningJobsAndTheRoundLeave) {
  HostState h = Host(8, 16);
  h.AddBusy(10, Need{2, 4});
  SpareRoom spare = SpareAfterRound(h, {Need{1, 0}, Need{3, 2}});
  EXPECT_EQ(spare.cores, 2);
  EXPECT_DOUBLE_EQ(spare.memory_gb, 10);
  EXPECT_TRUE(spare.memory_limited);
  h.usable = false;
  EXPECT_EQ(SpareAfterRound(h, {}).cores, 0);
}

// The 1-core call placed on an 8-core host runs the 8-core alternative
// when 7 more cores are spare, and the called operation when not.
TEST(ImplementationChoiceTest, FirstAlternativeThatFitsTheRoomLeft) {
  const Need base{1, 0};
  const std::vector<Need> alternatives = {Need{8, 0}, Need{4, 0}};
  SpareRoom spare{7, 0, false};
  EXPECT_EQ(ChooseImplementation(base, alternatives, &spare), 0);
  EXPECT_EQ(spare.cores, 0);
  // The room is taken: the next task of the round gets the called one.
  EXPECT_EQ(ChooseImplementation(base, alternatives, &spare), -1);
  spare = SpareRoom{3, 0, false};
  EXPECT_EQ(ChooseImplementation(base, alternatives, &spare), 1);
  EXPECT_EQ(spare.cores, 0);
}

// COMPSs's CPU operation with a GPU alternative: a call runs on a GPU
// where a device is spare, on the CPU elsewhere; running GPU jobs and the
// round's count against the host's devices.
TEST(ImplementationChoiceTest, AGpuAlternativeRunsWhereADeviceIsSpare) {
  HostState h = Host(4);
  h.gpus = 2;
  Need gpu{1, 0};
  gpu.gpus = 1;
  h.AddBusy(10, gpu);
  SpareRoom spare = SpareAfterRound(h, {Need{}});
  EXPECT_EQ(spare.gpus, 1);
  const Need base{1, 0};
  EXPECT_EQ(ChooseImplementation(base, {gpu}, &spare), 0);
  EXPECT_EQ(spare.gpus, 0);
  EXPECT_EQ(ChooseImplementation(base, {gpu}, &spare), -1)
      << "no device left: the CPU operation";
  SpareRoom no_devices = SpareAfterRound(Host(4), {});
  EXPECT_EQ(ChooseImplementation(base, {gpu}, &no_devices), -1);
}

TEST(ImplementationChoiceTest, MemoryCountsOnlyWhereItIsKnown) {
  const Need base{1, 1};
  const std::vector<Need> alternatives = {Need{1, 8}};
  SpareRoom limited{4, 2, true};
  EXPECT_EQ(ChooseImplementation(base, alternatives, &limited), -1);
  EXPECT_EQ(limited.cores, 4);  // nothing taken
  SpareRoom unknown{0, 0, false};
  EXPECT_EQ(ChooseImplementation(base, alternatives, &unknown), 0);
}

// A smaller alternative always fits: it gives room back.
TEST(ImplementationChoiceTest, SmallerAlternativeGivesRoomBack) {
  SpareRoom spare{0, 0, false};
  EXPECT_EQ(ChooseImplementation(Need{4, 0}, {Need{2, 0}}, &spare), 0);
  EXPECT_EQ(spare.cores, 2);
}

}  // namespace
}  // namespace gs
