#include "runtime/engine/job_builder.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace gs {
namespace {

const gs_param_desc kParams[] = {{"f", GS_TYPE_FILE, GS_DIR_INOUT},
                                 {"o", GS_TYPE_STRING, GS_DIR_OUT},
                                 {"io", GS_TYPE_STRING, GS_DIR_INOUT},
                                 {"n", GS_TYPE_INT, GS_DIR_OUT},
                                 {"s", GS_TYPE_STRING, GS_DIR_IN}};
const gs_operation kOp = {"greet", GS_TYPE_STRING, 5, kParams, 0, 0, 0};

// The worker reports the return value, then every out/inout non-File
// parameter (strings too) in order; the master stores each in the caller's
// variable.
TEST(JobBuilderTest, StringResultsReachTheCallersVariables) {
  char* o = nullptr;
  char* io = strdup("old");
  int n = 0;
  char* ret = nullptr;
  gs_arg args[5] = {};
  args[0].str = "f.txt";
  args[1].ptr = &o;
  args[2].ptr = &io;
  args[3].ptr = &n;
  args[4].str = "in";
  Status s = DecodeResults(kOp, "r\\\\1\nline1\\nline2\nnew\n7\n", args, &ret);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_STREQ(ret, "r\\1");
  EXPECT_STREQ(o, "line1\nline2");
  EXPECT_STREQ(io, "new");  // the old string was freed (ASan would tell)
  EXPECT_EQ(n, 7);
  std::free(ret);
  std::free(o);
  std::free(io);
}

// `double[3] f(in int k, out int n)`: the returned array comes first, into
// a malloc'd array the caller's pointer variable gets; a malformed one is
// an error and leaves the variable alone.
TEST(JobBuilderTest, ArrayReturnValueArrivesMalloced) {
  const gs_param_desc params[] = {{"k", GS_TYPE_INT, GS_DIR_IN},
                                  {"n", GS_TYPE_INT, GS_DIR_OUT}};
  gs_operation op = {"f", GS_TYPE_DOUBLE, 2, params, 0, 0, 0};
  op.return_array_length = 3;
  int n = 0;
  double* ret = nullptr;
  gs_arg args[2] = {};
  args[1].ptr = &n;
  Status s = DecodeResults(op, "0x1p+0,-0x1p-1,0x0p+0\n5\n", args, &ret);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_NE(ret, nullptr);
  EXPECT_EQ(ret[0], 1.0);
  EXPECT_EQ(ret[1], -0.5);
  EXPECT_EQ(ret[2], 0.0);
  EXPECT_EQ(n, 5);
  std::free(ret);  // the caller's to free (ASan would tell)

  ret = nullptr;
  s = DecodeResults(op, "0x1p+0,2\n5\n", args, &ret);
  EXPECT_EQ(s.message(), "bad array returned by f: expected 3 values, got 2");
  EXPECT_EQ(ret, nullptr);
  s = DecodeResults(op, "", args, &ret);
  EXPECT_EQ(s.message(), "worker reported no return value for f");
  // No slot (a caller that ignores the value): nothing is allocated.
  EXPECT_TRUE(DecodeResults(op, "1,2,3\n5\n", args, nullptr).ok());
}

TEST(JobBuilderTest, MissingOrMalformedStringResultIsAnError) {
  char* o = nullptr;
  char* io = nullptr;
  int n = 0;
  char* ret = nullptr;
  gs_arg args[5] = {};
  args[1].ptr = &o;
  args[2].ptr = &io;
  args[3].ptr = &n;
  Status s = DecodeResults(kOp, "r\nbad\\q\n", args, &ret);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "bad value 'bad\\q' for 'o' of greet");
  s = DecodeResults(kOp, "r\no\n", args, &ret);
  EXPECT_EQ(s.message(), "worker reported no value for 'io' of greet");
  std::free(ret);
  std::free(o);
  std::free(io);
}

// An inout string left NULL by the caller goes to the worker as "".
TEST(JobBuilderTest, InoutStringsAreEncodedFromTheCallersVariable) {
  char* io = strdup("x y");
  char* null_io = nullptr;
  const gs_param_desc params[] = {{"a", GS_TYPE_STRING, GS_DIR_INOUT},
                                  {"b", GS_TYPE_STRING, GS_DIR_INOUT},
                                  {"c", GS_TYPE_STRING, GS_DIR_OUT}};
  const gs_operation op = {"op", GS_TYPE_VOID, 3, params, 0, 0, 0};
  gs_arg args[3] = {};
  args[0].ptr = &io;
  args[1].ptr = &null_io;
  std::string blob;
  EncodeScalars(op, args, &blob);
  EXPECT_EQ(blob, std::string("x y\0\0\0", 6));
  std::free(io);
}

const gs_param_desc kArrayParams[] = {{"v", GS_TYPE_INT, GS_DIR_IN, 0, 2},
                                      {"n", GS_TYPE_INT, GS_DIR_IN, 0, 0},
                                      {"o", GS_TYPE_DOUBLE, GS_DIR_OUT, 0, 2},
                                      {"io", GS_TYPE_CHAR, GS_DIR_INOUT, 2, 0}};
const gs_operation kArrayOp = {"arr", GS_TYPE_VOID, 4, kArrayParams, 0, 0, 0};

// in/inout arrays travel as "e0,e1,..." sized by their length; out arrays
// come back into the caller's array.
TEST(JobBuilderTest, ArraysAreEncodedAndDecodedByTheirLength) {
  int v[3] = {4, -5, 6};
  double o[3] = {};
  char io[2] = {'a', 'b'};
  gs_arg args[4] = {};
  args[0].ptr = v;
  args[1].i = 3;
  args[2].ptr = o;
  args[3].ptr = io;
  ASSERT_TRUE(CheckCallValues(kArrayOp, args).ok());
  std::string blob;
  EncodeScalars(kArrayOp, args, &blob);
  EXPECT_EQ(blob, std::string("4,-5,6\0"
                              "3\0"
                              "\0"
                              "97,98\0",
                              16));
  Status s =
      DecodeResults(kArrayOp, "0x1p+0,0x1p+1,-0x1p-1\n99,100\n", args, nullptr);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(o[0], 1.0);
  EXPECT_EQ(o[2], -0.5);
  EXPECT_EQ(io[1], 'd');
  s = DecodeResults(kArrayOp, "0x1p+0\n99,100\n", args, nullptr);
  EXPECT_EQ(s.message(), "bad array 'o' of arr: expected 3 values, got 1");
}

TEST(JobBuilderTest, BadArrayLengthsAreRefusedAtTheCall) {
  int v[1] = {1};
  double o[1] = {};
  char io[2] = {};
  gs_arg args[4] = {};
  args[0].ptr = v;
  args[1].i = -2;
  args[2].ptr = o;
  args[3].ptr = io;
  EXPECT_EQ(CheckCallValues(kArrayOp, args).message(),
            "operation 'arr': array 'v' would have -2 elements (parameter "
            "'n'); it may have 0 to 16384. Pass bigger data in a File");
  args[1].i = 1;
  args[3].ptr = nullptr;
  EXPECT_EQ(CheckCallValues(kArrayOp, args).message(),
            "operation 'arr': array 'io' is NULL; pass an array of 2 elements");
  // Within the count but too long as text for one job argument.
  std::vector<double> big(16384, -1.2345678901234567e-300);
  const gs_param_desc params[] = {{"d", GS_TYPE_DOUBLE, GS_DIR_IN, 16384, 0}};
  const gs_operation op = {"big", GS_TYPE_VOID, 1, params, 0, 0, 0};
  gs_arg one[1] = {};
  one[0].ptr = big.data();
  Status s = CheckCallValues(op, one);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("pass big data in a File"), std::string::npos)
      << s.message();
}

}  // namespace
}  // namespace gs
