#include "runtime/base/array_codec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace gs {
namespace {

TEST(ArrayCodecTest, RoundTripsEveryElementExactly) {
  const double v[] = {0.1, -2.5, 1e300};
  std::string text = EncodeArray(GS_TYPE_DOUBLE, v, 3);
  EXPECT_EQ(std::count(text.begin(), text.end(), ','), 2);
  double back[3] = {};
  ASSERT_TRUE(DecodeArray(GS_TYPE_DOUBLE, text, 3, back).ok());
  EXPECT_EQ(back[0], 0.1);
  EXPECT_EQ(back[1], -2.5);
  EXPECT_EQ(back[2], 1e300);

  const char c[] = {'a', '\n', '\xff'};
  EXPECT_EQ(EncodeArray(GS_TYPE_CHAR, c, 3), "97,10,255");
  char cb[3] = {};
  ASSERT_TRUE(DecodeArray(GS_TYPE_CHAR, "97,10,255", 3, cb).ok());
  EXPECT_EQ(cb[2], '\xff');
}

TEST(ArrayCodecTest, EmptyArrayIsEmptyText) {
  EXPECT_EQ(EncodeArray(GS_TYPE_INT, nullptr, 0), "");
  EXPECT_TRUE(DecodeArray(GS_TYPE_INT, "", 0, nullptr).ok());
}

TEST(ArrayCodecTest, WrongCountOrBadElementIsRefusedWithWhy) {
  int out[3] = {};
  EXPECT_EQ(DecodeArray(GS_TYPE_INT, "1,2", 3, out).message(),
            "expected 3 values, got 2");
  EXPECT_EQ(DecodeArray(GS_TYPE_INT, "1,2,3,4", 3, out).message(),
            "expected 3 values, got 4");
  EXPECT_EQ(DecodeArray(GS_TYPE_INT, "", 3, out).message(),
            "expected 3 values, got 0");
  EXPECT_EQ(DecodeArray(GS_TYPE_INT, "1,x,3", 3, out).message(),
            "value 1 'x' is not a int");
  EXPECT_EQ(DecodeArray(GS_TYPE_INT, "1,,3", 3, out).message(),
            "value 1 '' is not a int");
  EXPECT_EQ(DecodeArray(GS_TYPE_SHORT, "1,2,70000", 3, out).message(),
            "value 2 '70000' is not a short");
}

TEST(ArrayCodecTest, LengthIsFixedOrTakenFromItsParameterWithinBounds) {
  const gs_param_desc params[] = {{"a", GS_TYPE_INT, GS_DIR_IN, 4, 0},
                                  {"n", GS_TYPE_INT, GS_DIR_IN, 0, 0},
                                  {"v", GS_TYPE_DOUBLE, GS_DIR_OUT, 0, 2}};
  const gs_operation op = {"f", GS_TYPE_VOID, 3, params, 0, 0, 0};
  EXPECT_TRUE(IsArrayParam(params[0]));
  EXPECT_FALSE(IsArrayParam(params[1]));
  EXPECT_TRUE(IsArrayParam(params[2]));
  gs_arg args[3] = {};
  args[1].i = 5;
  EXPECT_EQ(*ArrayLength(op, 0, args), 4u);
  EXPECT_EQ(*ArrayLength(op, 2, args), 5u);
  args[1].i = -1;
  EXPECT_EQ(ArrayLength(op, 2, args).status().message(),
            "operation 'f': array 'v' would have -1 elements (parameter "
            "'n'); it may have 0 to 16384. Pass bigger data in a File");
  args[1].i = kMaxArrayElements + 1;
  EXPECT_FALSE(ArrayLength(op, 2, args).ok());
  EXPECT_EQ(ArrayTypeName(op, params[0]), "int[4]");
  EXPECT_EQ(ArrayTypeName(op, params[2]), "double[n]");
}

}  // namespace
}  // namespace gs
