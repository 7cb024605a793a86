// The capacity model (scheduler.h, SlotBoard): every policy keeps each
// host's cores and memory within its capacity, small tasks still fill the
// gaps, and a task needing several cores is not starved by them.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "runtime/sched/policies_volatile.h"
#include "runtime/sched/run_to_end_test_util.h"
#include "runtime/sched/scheduler.h"

namespace gs {
namespace {

using testing_util::Capacity;
using testing_util::FixedPredictor;
using testing_util::RunToEnd;
using testing_util::Trace;

// Every policy that places tasks one by one or in batches.
const char* const kPolicies[] = {
    "mct",          "met",    "min-min", "sufferage", "min-min-ls",
    "sufferage-ls", "ftmct",  "ftmet",   "grank",     "gtp",
    "wqr",          "wqr-ft", "wqdr-ft"};

class CapacityTest : public ::testing::TestWithParam<const char*> {
 protected:
  std::unique_ptr<Policy> Make() {
    auto p = MakePolicy(GetParam());
    EXPECT_TRUE(p.ok());
    return std::move(p).value();
  }
};

// The case: a 2-core operation among 1-core ones on a 2-slot host.
TEST_P(CapacityTest, TwoCoreTasksNeverOversubscribeATwoSlotHost) {
  FixedPredictor p;
  p.et = {{0, 1.0}, {1, 3.0}};
  std::vector<OpId> ops;
  for (int i = 0; i < 12; ++i) ops.push_back(i % 3 == 1 ? 1 : 0);
  Trace t = RunToEnd(Make(), {{2}}, {{1, Need{2, 0}}}, ops, p);
  EXPECT_TRUE(t.finished) << "some task never ran";
  EXPECT_EQ(t.overflow, "");
  EXPECT_EQ(t.most_cores, 2);
  EXPECT_EQ(t.most_small_together, 2) << "1-core tasks ran one at a time";
  EXPECT_EQ(t.started.size(), ops.size());
}

// Memory as a second dimension: 3 GB tasks on a 4 GB host run one at a
// time while one-core tasks without memory use the other cores.
TEST_P(CapacityTest, MemoryIsASecondDimension) {
  FixedPredictor p;
  p.et = {{0, 1.0}, {1, 2.0}};
  std::vector<OpId> ops = {1, 1, 1, 0, 0, 0, 0, 0, 0};
  Trace t = RunToEnd(Make(), {{4, 4.0}}, {{1, Need{1, 3.0}}}, ops, p);
  EXPECT_TRUE(t.finished);
  EXPECT_EQ(t.overflow, "");
  EXPECT_DOUBLE_EQ(t.most_memory, 3.0);
  EXPECT_GE(t.most_small_together, 2);
}

// Hosts of different sizes: 4-core tasks go only where 4 cores are.
TEST_P(CapacityTest, BigTasksGoOnlyToHostsTheyFit) {
  FixedPredictor p;
  std::vector<OpId> ops = {1, 0, 1, 0, 0, 1, 0, 0};
  Trace t = RunToEnd(Make(), {{1}, {2}, {4}}, {{1, Need{4, 0}}}, ops, p);
  EXPECT_TRUE(t.finished);
  EXPECT_EQ(t.overflow, "");
}

// A big task in a steady stream of small ones still starts: it reserves
// its host's cores in queue order each round.
TEST_P(CapacityTest, BigTaskIsNotStarvedBySmallOnes) {
  FixedPredictor p;
  p.et = {{0, 1.0}, {1, 1.0}};
  std::vector<OpId> ops(40, 0);
  ops[3] = 1;
  Trace t = RunToEnd(Make(), {{2}}, {{1, Need{2, 0}}}, ops, p);
  ASSERT_TRUE(t.finished);
  EXPECT_EQ(t.overflow, "");
  auto pos = std::find(t.started.begin(), t.started.end(), 3u);
  ASSERT_NE(pos, t.started.end());
  // Min-Min maps shortest completions first, so the big task may go last;
  // the other policies start it before the small tasks queued after it
  // have all run.
  if (std::string(GetParam()) != "min-min") {
    EXPECT_LT(pos - t.started.begin(), 10) << "started after most of the rest";
  }
}

// GPUs as a third dimension: 1- and 2-GPU tasks on a host with 3 devices
// and 4 cores never hold more than 3 devices, CPU tasks use the cores
// beside them, and a host without devices gets no GPU task.
TEST_P(CapacityTest, GpusAreAThirdDimension) {
  FixedPredictor p;
  p.et = {{0, 1.0}, {1, 2.0}, {2, 2.0}};
  std::vector<OpId> ops;
  for (int i = 0; i < 18; ++i) ops.push_back(static_cast<OpId>(i % 3));
  Need one_gpu{1, 0};
  one_gpu.gpus = 1;
  Need two_gpus{1, 0};
  two_gpus.gpus = 2;
  Trace t =
      RunToEnd(Make(), {{4, 0, 3}, {2}}, {{1, one_gpu}, {2, two_gpus}}, ops, p);
  EXPECT_TRUE(t.finished) << "some task never ran";
  EXPECT_EQ(t.overflow, "");
  EXPECT_GE(t.most_gpus, 2) << "GPU tasks never shared the host's devices";
  EXPECT_LE(t.most_gpus, 3);
}

INSTANTIATE_TEST_SUITE_P(EveryPolicy, CapacityTest,
                         ::testing::ValuesIn(kPolicies));

TEST(CapacityTest, TaskThatFitsNoHostWaitsWithoutBlockingOthers) {
  FixedPredictor p;
  Scheduler s(MakeMctPolicy());
  s.SetNeed(1, Need{3, 0});
  s.AddReady(0, 1);  // fits no 2-slot host
  s.AddReady(1, 0);
  s.AddReady(2, 0);
  std::vector<HostState> hosts(1);
  hosts[0].slots = 2;
  auto placed = s.Schedule({0, &hosts, &p});
  ASSERT_EQ(placed.size(), 2u);
  EXPECT_EQ(placed[0].task, 1u);
  EXPECT_EQ(placed[1].task, 2u);
  EXPECT_EQ(s.num_ready(), 1u);
}

TEST(SlotBoardTest, AGpuTaskStartsWhenItsDevicesAreFree) {
  std::vector<HostState> hosts(1);
  hosts[0].slots = 4;
  hosts[0].gpus = 2;
  Need two{1, 0};
  two.gpus = 2;
  hosts[0].AddBusy(5, two);  // both devices until 5, one core
  hosts[0].AddBusy(3, Need{});
  SlotBoard board(SchedulingInput{0, &hosts, nullptr});
  Need one{1, 0};
  one.gpus = 1;
  Need three{1, 0};
  three.gpus = 3;
  EXPECT_TRUE(board.Fits(0, one));
  EXPECT_FALSE(board.Fits(0, three)) << "more than the host has";
  EXPECT_FALSE(board.FreeNowFor(0, one));
  EXPECT_TRUE(board.FreeNowFor(0, Need{})) << "cores are free";
  EXPECT_DOUBLE_EQ(board.EarliestFor(0, one), 5);
  board.Take(0, one, 9);  // after the pair: holds one device until 9
  EXPECT_DOUBLE_EQ(board.EarliestFor(0, two), 9);
  EXPECT_EQ(hosts[0].FreeFor(one), 0);
  std::vector<HostState> none(1);
  none[0].slots = 4;
  EXPECT_FALSE(SlotBoard(SchedulingInput{0, &none, nullptr}).Fits(0, one));
}

TEST(SlotBoardTest, SeveralCoresStartWhenTheLastOfThemIsFree) {
  std::vector<HostState> hosts(1);
  hosts[0].slots = 3;
  hosts[0].busy_until = {5, 9};  // one core free now
  SchedulingInput in{0, &hosts, nullptr};
  SlotBoard board(in);
  Need two{2, 0};
  EXPECT_TRUE(board.Fits(0, two));
  EXPECT_FALSE(board.Fits(0, Need{4, 0}));
  EXPECT_FALSE(board.FreeNowFor(0, two));
  EXPECT_TRUE(board.FreeNowFor(0, Need{}));
  EXPECT_DOUBLE_EQ(board.EarliestFor(0, two), 5);
  EXPECT_DOUBLE_EQ(board.EarliestFor(0, Need{3, 0}), 9);
  board.Take(0, two, 8);  // the free core and the one free at 5
  EXPECT_EQ(board.total_free(), 0);
  EXPECT_DOUBLE_EQ(board.earliest(0), 8);
  EXPECT_DOUBLE_EQ(board.EarliestFor(0, Need{3, 0}), 9);
}

TEST(SlotBoardTest, MemoryFreesWhenItsHoldersEnd) {
  std::vector<HostState> hosts(1);
  hosts[0].slots = 4;
  hosts[0].memory_gb = 8;
  hosts[0].AddBusy(4, Need{1, 5});
  hosts[0].AddBusy(6, Need{1, 2});
  SchedulingInput in{0, &hosts, nullptr};
  SlotBoard board(in);
  EXPECT_TRUE(board.FreeNowFor(0, Need{1, 1}));
  EXPECT_FALSE(board.FreeNowFor(0, Need{1, 2}));
  EXPECT_DOUBLE_EQ(board.EarliestFor(0, Need{1, 2}), 4);
  EXPECT_DOUBLE_EQ(board.EarliestFor(0, Need{1, 7}), 6);
  EXPECT_FALSE(board.Fits(0, Need{1, 9}));
  board.Take(0, Need{1, 6}, 10);  // reserved from 6 (held from now on)
  EXPECT_DOUBLE_EQ(board.EarliestFor(0, Need{1, 3}), 10);
}

// With no constraints the board answers as before the capacity model.
TEST(SlotBoardTest, SimpleNeedsAreTheOneSlotCase) {
  std::vector<HostState> hosts(2);
  hosts[0].slots = 2;
  hosts[0].busy_until = {3};
  hosts[1].slots = 1;
  hosts[1].busy_until = {7};
  SchedulingInput in{1, &hosts, nullptr};
  SlotBoard board(in);
  for (HostId h = 0; h < 2; ++h) {
    EXPECT_EQ(board.EarliestFor(h, Need{}), board.earliest(h));
    EXPECT_EQ(board.FreeNowFor(h, Need{}), board.free_now(h));
  }
  EXPECT_EQ(hosts[0].FreeFor(Need{}), hosts[0].free_slots());
}

TEST(HostStateTest, FreeForCountsJobsOfOneNeed) {
  HostState h;
  h.slots = 8;
  h.memory_gb = 10;
  h.AddBusy(1, Need{2, 4});
  EXPECT_EQ(h.free_slots(), 6);
  EXPECT_EQ(h.FreeFor(Need{2, 0}), 3);
  EXPECT_EQ(h.FreeFor(Need{2, 3}), 2);  // 6 GB left
  EXPECT_EQ(h.FreeFor(Need{1, 0}), 6);
}

// The volatile policies build a configuration of identical tasks: hosts
// count in jobs of the operation's Need.
TEST(CapacityVolatileTest, ConfigurationsRespectCores) {
  FixedPredictor p;
  auto policy = MakeVolatilePolicy("ie");
  Scheduler s(std::move(policy));
  s.SetNeed(0, Need{2, 0});
  for (TaskId t = 0; t < 3; ++t) s.AddReady(t, 0);
  std::vector<HostState> hosts(2);
  hosts[0].slots = 4;
  hosts[1].slots = 3;
  auto placed = s.Schedule({0, &hosts, &p});
  ASSERT_EQ(placed.size(), 3u);
  std::map<HostId, int> cores;
  for (const Placement& pl : placed) cores[pl.host] += 2;
  EXPECT_LE(cores[0], 4);
  EXPECT_LE(cores[1], 3);
}

TEST(FormatCapacityTest, NamesCoresAndMemory) {
  EXPECT_EQ(FormatCapacity(1, 0), "1 core");
  EXPECT_EQ(FormatCapacity(4, 2.5), "4 cores and 2.5 GB of memory");
}

}  // namespace
}  // namespace gs
