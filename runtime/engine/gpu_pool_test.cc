#include "runtime/engine/gpu_pool.h"

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

}  // namespace
}  // namespace gs
