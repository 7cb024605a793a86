#include "runtime/base/joined.h"

#include <gtest/gtest.h>

#include <vector>

namespace gs {
namespace {

TEST(JoinedTest, PutsTheSeparatorBetweenItemsOnly) {
  EXPECT_EQ(Joined(std::vector<std::string>{"a", "b", "c"}, ", "), "a, b, c");
  EXPECT_EQ(Joined(std::vector<std::string>{"0"}, ","), "0");
  EXPECT_EQ(Joined(std::vector<std::string>{}, ","), "");
  // An empty item keeps its place.
  EXPECT_EQ(Joined(std::vector<std::string>{"", "x"}, ","), ",x");
}

}  // namespace
}  // namespace gs
