#include "runtime/config/reuse_mode.h"

#include <gtest/gtest.h>

namespace gs {
namespace {

TEST(ReuseModeTest, ReadsWhatUsersType) {
  EXPECT_EQ(ParseReuseMode("1"), ReuseMode::kOn);
  EXPECT_EQ(ParseReuseMode("On"), ReuseMode::kOn);
  EXPECT_EQ(ParseReuseMode("0"), ReuseMode::kOff);
  EXPECT_EQ(ParseReuseMode("off"), ReuseMode::kOff);
  EXPECT_EQ(ParseReuseMode("EXPLAIN"), ReuseMode::kExplain);
  EXPECT_EQ(ParseReuseMode("2"), std::nullopt);
  EXPECT_EQ(ParseReuseMode(""), std::nullopt);
  EXPECT_EQ(ParseReuseMode("on "), std::nullopt);
}

}  // namespace
}  // namespace gs
