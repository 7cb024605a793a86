#include "runtime/worker/worker_args.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

namespace gs {
namespace {

const gs_param_desc kParams[] = {
    {"f", GS_TYPE_FILE, GS_DIR_INOUT},    {"s", GS_TYPE_STRING, GS_DIR_IN},
    {"c", GS_TYPE_CHAR, GS_DIR_IN},       {"b", GS_TYPE_BOOLEAN, GS_DIR_IN},
    {"sh", GS_TYPE_SHORT, GS_DIR_IN},     {"i", GS_TYPE_INT, GS_DIR_IN},
    {"l", GS_TYPE_LONG, GS_DIR_IN},       {"fl", GS_TYPE_FLOAT, GS_DIR_IN},
    {"d", GS_TYPE_DOUBLE, GS_DIR_IN},     {"on", GS_TYPE_INT, GS_DIR_OUT},
    {"io", GS_TYPE_DOUBLE, GS_DIR_INOUT}, {"ob", GS_TYPE_BOOLEAN, GS_DIR_OUT},
    {"of", GS_TYPE_FILE, GS_DIR_OUT},
};
const gs_operation kOp = {"op", GS_TYPE_LONG, 13, kParams, 0, 0, 0};

std::vector<const char*> GoodValues() {
  return {"path/f", "a b;\n$x",    "200",      "1",         "-5",
          "123",    "-9000000000", "0x1.8p+0", "-0x1.2p+1", "",
          "0x1p+2", "ignored",     "out/of"};
}

TEST(DecodeCallTest, DecodesEveryKindOfArgument) {
  std::vector<const char*> values = GoodValues();
  DecodedCall call;
  Status s = DecodeCall(kOp, values, &call);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(call.args.size(), 13u);
  EXPECT_EQ(call.args[0].str, values[0]);  // points into argv, no copy
  EXPECT_STREQ(call.args[1].str, "a b;\n$x");
  EXPECT_EQ(static_cast<char>(call.args[2].i), static_cast<char>(200));
  EXPECT_EQ(call.args[3].i, 1);
  EXPECT_EQ(call.args[4].i, -5);
  EXPECT_EQ(call.args[5].i, 123);
  EXPECT_EQ(call.args[6].i, -9000000000LL);
  EXPECT_EQ(call.args[7].d, 1.5);
  EXPECT_EQ(call.args[8].d, -2.25);
  // out scalar: a zeroed slot; inout: the decoded input value.
  ASSERT_EQ(call.args[9].ptr, call.slots[9].bytes);
  EXPECT_EQ(*static_cast<int*>(call.args[9].ptr), 0);
  ASSERT_EQ(call.args[10].ptr, call.slots[10].bytes);
  EXPECT_EQ(*static_cast<double*>(call.args[10].ptr), 4.0);
  EXPECT_EQ(*static_cast<bool*>(call.args[11].ptr), false);
  EXPECT_STREQ(call.args[12].str, "out/of");
}

TEST(DecodeCallTest, EncodeResultsGivesReturnThenOutAndInoutScalars) {
  std::vector<const char*> values = GoodValues();
  DecodedCall call;
  ASSERT_TRUE(DecodeCall(kOp, values, &call).ok());
  *reinterpret_cast<long*>(call.result.bytes) = -7;
  *static_cast<int*>(call.args[9].ptr) = 42;
  *static_cast<double*>(call.args[10].ptr) *= 2;
  *static_cast<bool*>(call.args[11].ptr) = true;
  EXPECT_EQ(*EncodeResults(kOp, call), "-7\n42\n0x1p+3\n1\n");

  // Pointers survive a move of the DecodedCall (the slots do not move).
  DecodedCall moved = std::move(call);
  EXPECT_EQ(moved.args[9].ptr, moved.slots[9].bytes);
}

TEST(DecodeCallTest, VoidOperationWithoutScalarResultsEncodesNothing) {
  const gs_param_desc params[] = {{"a", GS_TYPE_FILE, GS_DIR_IN},
                                  {"b", GS_TYPE_FILE, GS_DIR_OUT}};
  const gs_operation op = {"copy", GS_TYPE_VOID, 2, params, 0, 0, 0};
  std::vector<const char*> values = {"x", "y"};
  DecodedCall call;
  ASSERT_TRUE(DecodeCall(op, values, &call).ok());
  EXPECT_EQ(*EncodeResults(op, call), "");

  const gs_operation none = {"tick", GS_TYPE_INT, 0, nullptr, 0, 0, 0};
  DecodedCall empty;
  ASSERT_TRUE(DecodeCall(none, {}, &empty).ok());
  EXPECT_EQ(*EncodeResults(none, empty), "0\n");
}

// out/inout strings and string returns: the worker owns a malloc'd `char*`
// per slot, the function may replace it, and the result file carries it
// escaped on one line.
TEST(DecodeCallTest, StringResultsComeBackEscapedAndOwned) {
  const gs_param_desc params[] = {{"o", GS_TYPE_STRING, GS_DIR_OUT},
                                  {"io", GS_TYPE_STRING, GS_DIR_INOUT},
                                  {"n", GS_TYPE_INT, GS_DIR_OUT}};
  const gs_operation op = {"greet", GS_TYPE_STRING, 3, params, 0, 0, 0};
  std::vector<const char*> values = {"", "in\nput", ""};
  DecodedCall call;
  ASSERT_TRUE(DecodeCall(op, values, &call).ok());
  char** out = static_cast<char**>(call.args[0].ptr);
  char** inout = static_cast<char**>(call.args[1].ptr);
  EXPECT_EQ(*out, nullptr);
  ASSERT_NE(*inout, nullptr);
  EXPECT_STREQ(*inout, "in\nput");
  EXPECT_NE(*inout, values[1]);  // a copy the function may free
  *out = strdup("line1\nline2");
  std::free(*inout);
  *inout = strdup("back\\slash");
  *reinterpret_cast<char**>(call.result.bytes) = strdup("ret");
  *static_cast<int*>(call.args[2].ptr) = 3;
  StatusOr<std::string> text = EncodeResults(op, call);
  ASSERT_TRUE(text.ok()) << text.status().message();
  EXPECT_EQ(*text, "ret\nline1\\nline2\nback\\\\slash\n3\n");
  DecodedCall moved = std::move(call);  // frees once, in `moved`
  EXPECT_EQ(*static_cast<char**>(moved.args[0].ptr), *out);
}

// Arrays: in/inout decoded into storage the call owns, the length read
// from its parameter (declared after the array here), out arrays zeroed,
// and out/inout arrays reported on one line each.
TEST(DecodeCallTest, ArraysAreDecodedSizedAndReported) {
  const gs_param_desc params[] = {{"v", GS_TYPE_DOUBLE, GS_DIR_IN, 0, 2},
                                  {"n", GS_TYPE_INT, GS_DIR_IN, 0, 0},
                                  {"o", GS_TYPE_LONG, GS_DIR_OUT, 0, 2},
                                  {"io", GS_TYPE_SHORT, GS_DIR_INOUT, 2, 0}};
  const gs_operation op = {"arr", GS_TYPE_VOID, 4, params, 0, 0, 0};
  DecodedCall call;
  Status s = DecodeCall(op, {"0x1p+0,0x1p+1,0x1.8p+1", "3", "", "-1,2"}, &call);
  ASSERT_TRUE(s.ok()) << s.message();
  const double* v = static_cast<const double*>(call.args[0].ptr);
  EXPECT_EQ(v[0], 1.0);
  EXPECT_EQ(v[2], 3.0);
  long* o = static_cast<long*>(call.args[2].ptr);
  EXPECT_EQ(o[0], 0);
  EXPECT_EQ(o[2], 0);
  short* io = static_cast<short*>(call.args[3].ptr);
  EXPECT_EQ(io[0], -1);
  o[0] = 10;
  o[1] = 20;
  o[2] = 1L << 40;
  io[1] = 7;
  EXPECT_EQ(*EncodeResults(op, call), "10,20,1099511627776\n-1,7\n");
  EXPECT_EQ(OperationSignature(op),
            "void arr(in double[n] v, in int n, out long[n] o, inout "
            "short[2] io)");

  Status bad = DecodeCall(op, {"0x1p+0", "3", "", "-1,2"}, &call);
  EXPECT_EQ(bad.message(),
            "operation 'arr', parameter 'v' (in double[n]): expected 3 values, "
            "got 1");
  bad = DecodeCall(op, {"", "-4", "", "-1,2"}, &call);
  EXPECT_EQ(bad.message(),
            "operation 'arr': array 'v' would have -4 elements (parameter "
            "'n'); it may have 0 to 16384. Pass bigger data in a File");
}

// `int[3] make(in int x)`: the function returns a malloc'd array, which
// goes first in the result file on one line; the call frees it.
TEST(DecodeCallTest, ArrayReturnValueIsReportedAndOwned) {
  const gs_param_desc params[] = {{"x", GS_TYPE_INT, GS_DIR_IN}};
  gs_operation op = {"make", GS_TYPE_INT, 1, params, 0, 0, 0};
  op.return_array_length = 3;
  EXPECT_EQ(OperationSignature(op), "int[3] make(in int x)");
  DecodedCall call;
  ASSERT_TRUE(DecodeCall(op, {"4"}, &call).ok());
  EXPECT_TRUE(call.owns_result);
  int* made = static_cast<int*>(std::malloc(3 * sizeof(int)));
  made[0] = 4;
  made[1] = -5;
  made[2] = 1 << 20;
  *reinterpret_cast<int**>(call.result.bytes) = made;
  StatusOr<std::string> text = EncodeResults(op, call);
  ASSERT_TRUE(text.ok()) << text.status().message();
  EXPECT_EQ(*text, "4,-5,1048576\n");
  // `call` frees `made` when it goes (LeakSanitizer would tell).
}

TEST(DecodeCallTest, ArrayReturnValueLeftNullNamesTheOperation) {
  gs_operation op = {"make", GS_TYPE_DOUBLE, 0, nullptr, 0, 0, 0};
  op.return_array_length = 2;
  DecodedCall call;
  ASSERT_TRUE(DecodeCall(op, {}, &call).ok());
  StatusOr<std::string> text = EncodeResults(op, call);
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().message(),
            "operation 'make': the returned array is NULL; return a malloc'd "
            "array of 2 double");
}

TEST(DecodeCallTest, StringResultLeftNullNamesTheParameter) {
  const gs_param_desc params[] = {{"name", GS_TYPE_STRING, GS_DIR_OUT}};
  const gs_operation op = {"who", GS_TYPE_VOID, 1, params, 0, 0, 0};
  DecodedCall call;
  ASSERT_TRUE(DecodeCall(op, {""}, &call).ok());
  StatusOr<std::string> text = EncodeResults(op, call);
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().message(),
            "operation 'who': out string 'name' is NULL; set it to a malloc'd "
            "string (e.g. strdup(\"\"))");
}

TEST(DecodeCallTest, WrongArgumentCountNamesTheParameters) {
  DecodedCall call;
  Status s = DecodeCall(kOp, {"only", "two"}, &call);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(s.message(),
            "operation 'op' takes 13 arguments (f, s, c, b, sh, i, l, fl, d, "
            "on, io, ob, of), got 2");
  const gs_operation none = {"tick", GS_TYPE_VOID, 0, nullptr, 0, 0, 0};
  s = DecodeCall(none, {"x"}, &call);
  EXPECT_EQ(s.message(), "operation 'tick' takes 0 arguments, got 1");
}

TEST(DecodeCallTest, UndecodableScalarNamesOperationAndParameter) {
  struct Case {
    size_t index;
    const char* value;
    const char* message;
  };
  for (const Case& c :
       {Case{2, "256",
             "operation 'op', parameter 'c' (in char): cannot "
             "decode '256'"},
        Case{3, "yes",
             "operation 'op', parameter 'b' (in boolean): cannot "
             "decode 'yes'"},
        Case{4, "40000",
             "operation 'op', parameter 'sh' (in short): cannot "
             "decode '40000'"},
        Case{5, "",
             "operation 'op', parameter 'i' (in int): cannot decode "
             "''"},
        Case{8, "1.5x",
             "operation 'op', parameter 'd' (in double): cannot "
             "decode '1.5x'"},
        Case{10, "nan?",
             "operation 'op', parameter 'io' (inout double): "
             "cannot decode 'nan?'"}}) {
    std::vector<const char*> values = GoodValues();
    values[c.index] = c.value;
    DecodedCall call;
    Status s = DecodeCall(kOp, values, &call);
    ASSERT_FALSE(s.ok()) << c.value;
    EXPECT_EQ(s.message(), c.message);
  }
}

TEST(OperationSignatureTest, SpellsTheIdlDeclaration) {
  const gs_param_desc params[] = {{"a", GS_TYPE_FILE, GS_DIR_IN},
                                  {"acc", GS_TYPE_DOUBLE, GS_DIR_INOUT}};
  EXPECT_EQ(OperationSignature({"add", GS_TYPE_VOID, 2, params}),
            "void add(in File a, inout double acc)");
  EXPECT_EQ(OperationSignature({"tick", GS_TYPE_BOOLEAN, 0, nullptr}),
            "boolean tick()");
}

}  // namespace
}  // namespace gs
