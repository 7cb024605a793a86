#include "runtime/engine/quiet_watch.h"

#include <gtest/gtest.h>

namespace gs {
namespace {

TEST(QuietWatchTest, ReportsAfterTheBoundThenEachTimeTheQuietDoubles) {
  QuietWatch watch(10);
  EXPECT_FALSE(watch.Look(0, true, 0));
  EXPECT_FALSE(watch.Look(9.9, true, 0));
  EXPECT_TRUE(watch.Look(10, true, 0));
  EXPECT_EQ(watch.quiet_since(), 0);
  EXPECT_FALSE(watch.Look(11, true, 0));  // reported once, not every look
  EXPECT_FALSE(watch.Look(19.9, true, 0));
  EXPECT_TRUE(watch.Look(20, true, 0));
  EXPECT_FALSE(watch.Look(39, true, 0));
  EXPECT_TRUE(watch.Look(40, true, 0));
}

TEST(QuietWatchTest, AnythingMovingOrNothingOutStartsAgain) {
  QuietWatch watch(10);
  EXPECT_FALSE(watch.Look(0, true, 0));
  EXPECT_FALSE(watch.Look(8, true, /*moved=*/1));  // a job ended
  EXPECT_FALSE(watch.Look(17, true, 1));
  EXPECT_TRUE(watch.Look(18, true, 1));
  EXPECT_FALSE(watch.Look(19, false, 1));  // nothing out: nothing to wait on
  EXPECT_FALSE(watch.Look(20, true, 1));
  EXPECT_FALSE(watch.Look(29, true, 1));
  EXPECT_TRUE(watch.Look(30, true, 1));  // the bound again, not the doubled
}

TEST(QuietWatchTest, ZeroBoundTurnsTheWatchOff) {
  QuietWatch watch(0);
  for (Seconds t = 0; t < 1000; t += 100) EXPECT_FALSE(watch.Look(t, true, 0));
}

TEST(QuietWatchTest, MessageNamesJobsHostsWhyDownAndWhatToDo) {
  std::vector<QuietJob> jobs;
  for (int i = 0; i < 10; ++i) {
    jobs.push_back({"task " + std::to_string(i) + " (scratch)", "node1", 61});
  }
  std::string m =
      DescribeQuiet(61, 120, jobs, /*transfers=*/1,
                    {{"node1", "up", true, 0.4, ""},
                     {"node3", "down", false, -1, "connection refused"}});
  EXPECT_NE(m.find("for 61 s; 10 jobs are out and 1 file transfer:"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("task 0 (scratch) on node1 for 61 s"), std::string::npos);
  EXPECT_EQ(m.find("task 9 (scratch)"), std::string::npos);
  EXPECT_NE(m.find("and 2 more"), std::string::npos);
  EXPECT_NE(m.find("node1 (up, heard 0 s ago)"), std::string::npos) << m;
  EXPECT_NE(m.find("node3 (down, unusable, not back: connection refused)"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("runtime.timeout"), std::string::npos);
  EXPECT_NE(m.find("after 120 s"), std::string::npos);
}

}  // namespace
}  // namespace gs
