#include "runtime/base/units.h"

#include <gtest/gtest.h>

namespace gs {
namespace {

TEST(ConfigUnitsTest, Walltime) {
  EXPECT_EQ(ParseWalltime("90"), 90 * 60);
  EXPECT_EQ(ParseWalltime("5:30"), 5 * 60 + 30);
  EXPECT_EQ(ParseWalltime("1:30:00"), 5400);
  EXPECT_EQ(ParseWalltime("2-00:00:00"), 2 * 86400);
  EXPECT_EQ(ParseWalltime("1-2"), 86400 + 2 * 3600);
  EXPECT_EQ(ParseWalltime("1-2:30"), 86400 + 2 * 3600 + 30 * 60);
  for (const char* bad : {"", "0", "1h", "1:2:3:4", "-5", "1-", ":30", "a:b"}) {
    EXPECT_FALSE(ParseWalltime(bad).has_value()) << bad;
  }
  EXPECT_EQ(FormatWalltime(5400), "1:30:00");
  EXPECT_EQ(FormatWalltime(93784), "1-02:03:04");
  EXPECT_EQ(ParseWalltime(FormatWalltime(93784)), 93784);
}

TEST(ConfigUnitsTest, Memory) {
  EXPECT_EQ(ParseMemoryMb("4096"), 4096);
  EXPECT_EQ(ParseMemoryMb("512M"), 512);
  EXPECT_EQ(ParseMemoryMb("4g"), 4096);
  EXPECT_EQ(ParseMemoryMb("1T"), 1024 * 1024);
  EXPECT_EQ(ParseMemoryMb("100K"), 1);  // rounded up
  for (const char* bad :
       {"", "0", "4GB", "G", "-1", "1.5G", "99999999999999T"}) {
    EXPECT_FALSE(ParseMemoryMb(bad).has_value()) << bad;
  }
}

}  // namespace
}  // namespace gs
