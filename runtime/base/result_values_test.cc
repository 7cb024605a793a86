#include "runtime/base/result_values.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace gs {
namespace {

TEST(ResultValuesTest, OutAndInoutButNotFilesOrInsAreResults) {
  EXPECT_TRUE(IsResultParam({"s", GS_TYPE_STRING, GS_DIR_OUT}));
  EXPECT_TRUE(IsResultParam({"s", GS_TYPE_STRING, GS_DIR_INOUT}));
  EXPECT_TRUE(IsResultParam({"n", GS_TYPE_INT, GS_DIR_OUT}));
  EXPECT_FALSE(IsResultParam({"s", GS_TYPE_STRING, GS_DIR_IN}));
  EXPECT_FALSE(IsResultParam({"f", GS_TYPE_FILE, GS_DIR_OUT}));
  EXPECT_FALSE(IsResultParam({"f", GS_TYPE_FILE, GS_DIR_INOUT}));
}

TEST(ResultValuesTest, StringsWithNewlinesAndBackslashesStayOnOneLine) {
  const std::string original = "a\\b\nc\r\n\\n end";
  const char* in = original.c_str();
  std::string line = EncodeResultLine(GS_TYPE_STRING, &in);
  EXPECT_EQ(line.find('\n'), std::string::npos);
  EXPECT_EQ(line.find('\r'), std::string::npos);
  char* out = nullptr;
  ASSERT_TRUE(DecodeResultLine(GS_TYPE_STRING, line, &out));
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(std::string(out), original);
  std::free(out);
}

TEST(ResultValuesTest, DecodingAStringReplacesAndFreesTheOldOne) {
  char* var = nullptr;
  StoreString("first", &var);
  // Run under ASan/valgrind this also proves the old copy is freed.
  ASSERT_TRUE(DecodeResultLine(GS_TYPE_STRING, "second", &var));
  EXPECT_STREQ(var, "second");
  ASSERT_TRUE(DecodeResultLine(GS_TYPE_STRING, "", &var));
  EXPECT_STREQ(var, "");
  std::free(var);
}

TEST(ResultValuesTest, MalformedEscapesAreRefused) {
  char* var = nullptr;
  EXPECT_FALSE(DecodeResultLine(GS_TYPE_STRING, "ends with \\", &var));
  EXPECT_FALSE(DecodeResultLine(GS_TYPE_STRING, "bad \\t escape", &var));
  EXPECT_EQ(var, nullptr);  // left alone on failure
}

TEST(ResultValuesTest, NullStringEncodesAsEmpty) {
  const char* in = nullptr;
  EXPECT_EQ(EncodeResultLine(GS_TYPE_STRING, &in), "");
}

TEST(ResultValuesTest, ScalarsUseTheScalarCodec) {
  double d = 0.1;
  std::string line = EncodeResultLine(GS_TYPE_DOUBLE, &d);
  double back = 0;
  ASSERT_TRUE(DecodeResultLine(GS_TYPE_DOUBLE, line, &back));
  EXPECT_EQ(back, 0.1);
  int i = 0;
  EXPECT_FALSE(DecodeResultLine(GS_TYPE_INT, "1.5", &i));
}

}  // namespace
}  // namespace gs
