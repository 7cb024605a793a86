#include "runtime/jobs/gpu_pool.h"

#include <gtest/gtest.h>

namespace gs {
namespace {

TEST(GpuPoolTest, EachJobGetsDevicesOfItsOwnUntilItEnds) {
  GpuPool pool({"0", "1", "2"});
  EXPECT_EQ(pool.size(), 3);
  EXPECT_EQ(pool.Take(7, 2), (std::vector<std::string>{"0", "1"}));
  EXPECT_EQ(pool.free(), 1);
  EXPECT_TRUE(pool.Take(8, 2).empty()) << "one device left";
  EXPECT_EQ(pool.free(), 1) << "a refused take holds nothing";
  EXPECT_EQ(pool.Take(9, 1), std::vector<std::string>{"2"});
  pool.Release(7);
  EXPECT_EQ(pool.free(), 2);
  EXPECT_EQ(pool.Take(10, 2), (std::vector<std::string>{"0", "1"}));
  pool.Release(99);  // held nothing
  EXPECT_EQ(pool.free(), 0);
}

TEST(GpuPoolTest, NoDevicesOrNoNeedTakesNothing) {
  GpuPool none;
  EXPECT_EQ(none.size(), 0);
  EXPECT_TRUE(none.Take(1, 1).empty());
  GpuPool pool({"GPU-aa", "GPU-bb"});
  EXPECT_TRUE(pool.Take(1, 0).empty());
  EXPECT_EQ(pool.Take(0, 2), (std::vector<std::string>{"GPU-aa", "GPU-bb"}))
      << "job 0 is a job like any other";
  pool.Release(0);
  EXPECT_EQ(pool.free(), 2);
}

// A queue's or pilots' pool counts devices without naming them; the
// pilots' grows and shrinks with what they offer.
TEST(GpuPoolTest, LearnedPoolsFollowTheirCount) {
  GpuPool queue({"0", "1"}, GpuNaming::kQueue);
  EXPECT_FALSE(queue.names_devices());
  EXPECT_FALSE(queue.learned());
  GpuPool pilots({}, GpuNaming::kAgents);
  EXPECT_TRUE(pilots.learned());
  EXPECT_EQ(pilots.size(), 0);
  pilots.Resize(4);
  EXPECT_EQ(pilots.size(), 4);
  EXPECT_EQ(pilots.Take(1, 3).size(), 3u);
  EXPECT_EQ(pilots.free(), 1);
  pilots.Resize(2);  // a pilot went: its devices with it
  EXPECT_EQ(pilots.size(), 2);
  EXPECT_EQ(pilots.free(), 0);
  pilots.Release(1);
  EXPECT_EQ(pilots.free(), 2);
  pilots.Resize(-1);
  EXPECT_EQ(pilots.size(), 0);
}

}  // namespace
}  // namespace gs
