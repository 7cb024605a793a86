#include "runtime/engine/stall_watch.h"

#include <gtest/gtest.h>

namespace gs {
namespace {

StallLook Stuck(Seconds now, uint64_t moved = 0) {
  StallLook look;
  look.now = now;
  look.ready = 3;
  look.free_slots = 2;
  look.moved = moved;
  return look;
}

TEST(StallWatchTest, StuckLongerThanTheBoundIsAStall) {
  StallWatch watch(10);
  EXPECT_FALSE(watch.Look(Stuck(0)));
  EXPECT_FALSE(watch.Look(Stuck(9.9)));
  EXPECT_TRUE(watch.Look(Stuck(10)));
  EXPECT_EQ(watch.stuck_since(), 0);
}

TEST(StallWatchTest, AnythingRunningOrMovingResetsTheClock) {
  StallWatch watch(10);
  EXPECT_FALSE(watch.Look(Stuck(0)));
  StallLook busy = Stuck(5);
  busy.active = 1;  // a job runs
  EXPECT_FALSE(watch.Look(busy));
  EXPECT_FALSE(watch.Look(Stuck(12)));  // stuck again only since 12
  EXPECT_FALSE(watch.Look(Stuck(20, /*moved=*/1)));  // a job came and went
  EXPECT_FALSE(watch.Look(Stuck(29, 1)));
  EXPECT_TRUE(watch.Look(Stuck(30, 1)));
}

TEST(StallWatchTest, NoFreeSlotOrNothingReadyIsWaitingNotStalling) {
  StallWatch watch(1);
  StallLook full = Stuck(0);
  full.free_slots = 0;  // every host busy or down: waiting for them
  EXPECT_FALSE(watch.Look(full));
  full.now = 100;
  EXPECT_FALSE(watch.Look(full));
  StallLook idle = Stuck(200);
  idle.ready = 0;  // the master has not submitted anything yet
  EXPECT_FALSE(watch.Look(idle));
  idle.now = 300;
  EXPECT_FALSE(watch.Look(idle));
}

TEST(StallWatchTest, ZeroBoundTurnsTheWatchOff) {
  StallWatch watch(0);
  EXPECT_FALSE(watch.Look(Stuck(0)));
  EXPECT_FALSE(watch.Look(Stuck(1e6)));
}

TEST(StallWatchTest, MessageNamesTasksPolicyHostsAndWhatToDo) {
  std::vector<std::string> waiting;
  for (int i = 1; i <= 10; ++i) {
    waiting.push_back("task " + std::to_string(i) + " (count)");
  }
  std::string m = DescribeStall(
      "ip", 60, waiting, {{"local", "up", true, 4}, {"n1", "down", false, 0}});
  EXPECT_NE(m.find("policy 'ip'"), std::string::npos) << m;
  EXPECT_NE(m.find("none of the 10 ready tasks"), std::string::npos) << m;
  EXPECT_NE(m.find("task 1 (count)"), std::string::npos) << m;
  EXPECT_NE(m.find("and 2 more"), std::string::npos) << m;
  EXPECT_EQ(m.find("task 9 (count)"), std::string::npos) << m;
  EXPECT_NE(m.find("local (up, 4 free slots)"), std::string::npos) << m;
  EXPECT_NE(m.find("n1 (down, unusable, 0 free slots)"), std::string::npos)
      << m;
  EXPECT_NE(m.find("runtime.stall_timeout"), std::string::npos) << m;
}

// Tasks that wait for GPUs: each host says how many it has free.
TEST(StallWatchTest, GpuNeedsShowTheHostsGpus) {
  std::string m =
      DescribeStall("mct", 60, {"task 3 (pair, 2 GPUs)", "task 4 (cpu)"},
                    {{"local", "up", true, 4, 3, 1}, {"n1", "up", true, 2}});
  EXPECT_NE(m.find("local (up, 4 free slots, 1 of 3 GPUs free)"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("n1 (up, 2 free slots, 0 of 0 GPUs free)"),
            std::string::npos)
      << m;
  std::string cpu = DescribeStall("mct", 60, {"task 4 (cpu)"},
                                  {{"local", "up", true, 4, 3, 1}});
  EXPECT_EQ(cpu.find("GPUs"), std::string::npos) << cpu;
}

}  // namespace
}  // namespace gs
