#include "runtime/base/random_token.h"

#include <gtest/gtest.h>

namespace gs {
namespace {

TEST(RandomTokenTest, IsHexOfTheAskedLengthAndDiffersEachTime) {
  auto a = NewRandomToken(16);
  auto b = NewRandomToken(16);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(a->size(), 32u);
  EXPECT_EQ(a->find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_NE(*a, *b);
  EXPECT_EQ(NewRandomToken(32)->size(), 64u);
}

}  // namespace
}  // namespace gs
