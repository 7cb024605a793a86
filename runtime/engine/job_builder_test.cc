#include "runtime/engine/job_builder.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>

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

}  // namespace
}  // namespace gs
