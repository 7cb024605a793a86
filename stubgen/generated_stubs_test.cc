// The stubs that gsstubgen generated at build time from
// testdata/everything.idl, linked with a fake gs_call that records what each
// stub passes and plays the runtime's part for results.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "everything.h"
#include "gs/gs_abi.h"

namespace {

struct RecordedCall {
  const gs_operation* op = nullptr;
  std::vector<gs_arg> args;
  std::vector<std::string> strs;  // copies of args[k].str ("" when null)
  void* return_slot = nullptr;
};

std::vector<RecordedCall> g_calls;
// Runs inside gs_call, like the runtime storing results.
std::function<void(const gs_arg*, void*)> g_results;

// What the stubs registered before main.
std::vector<std::string> g_registered;
std::string g_registered_interface;

}  // namespace

extern "C" int gs_register_operations(const char* interface_name,
                                      const gs_operation* const* ops,
                                      int num_ops) {
  g_registered_interface = interface_name;
  for (int i = 0; i < num_ops; ++i) g_registered.emplace_back(ops[i]->name);
  return 0;
}

extern "C" void gs_call(const gs_operation* op, const gs_arg* args,
                        void* return_slot) {
  RecordedCall call;
  call.op = op;
  call.return_slot = return_slot;
  EXPECT_NE(args, nullptr);
  for (int k = 0; k < op->num_params; ++k) {
    call.args.push_back(args[k]);
    call.strs.push_back(args[k].str ? args[k].str : "");
  }
  g_calls.push_back(call);
  if (g_results) g_results(args, return_slot);
}

namespace gs {
namespace {

class GeneratedStubsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    g_calls.clear();
    g_results = nullptr;
  }
  void TearDown() override { g_results = nullptr; }

  const RecordedCall& OnlyCall() {
    EXPECT_EQ(g_calls.size(), 1u);
    return g_calls.back();
  }
};

void ExpectParam(const gs_operation& op, int k, const char* name, gs_type type,
                 gs_dir dir) {
  ASSERT_LT(k, op.num_params);
  EXPECT_STREQ(op.params[k].name, name);
  EXPECT_EQ(op.params[k].type, type) << name;
  EXPECT_EQ(op.params[k].dir, dir) << name;
}

// GS_On checks gsrt.yaml's operation names against these.
TEST_F(GeneratedStubsTest, StubsRegisterEveryOperationBeforeMain) {
  EXPECT_EQ(g_registered_interface, "everything");
  ASSERT_FALSE(g_registered.empty());
  EXPECT_EQ(g_registered.front(), "ins");
  EXPECT_NE(std::find(g_registered.begin(), g_registered.end(), "fails"),
            g_registered.end());
  std::vector<std::string> unique(g_registered);
  std::sort(unique.begin(), unique.end());
  EXPECT_EQ(std::unique(unique.begin(), unique.end()), unique.end())
      << "an operation registered twice";
}

TEST_F(GeneratedStubsTest, InParametersGoByValue) {
  ins("in.txt", "two words; \"$HOME\"\n", 'z', true, -3, 7, 1L << 40, 1.5f,
      2.25, "dump.txt");
  const RecordedCall& c = OnlyCall();
  EXPECT_STREQ(c.op->name, "ins");
  EXPECT_EQ(c.op->return_type, GS_TYPE_VOID);
  ASSERT_EQ(c.op->num_params, 10);
  ExpectParam(*c.op, 0, "f", GS_TYPE_FILE, GS_DIR_IN);
  ExpectParam(*c.op, 1, "s", GS_TYPE_STRING, GS_DIR_IN);
  ExpectParam(*c.op, 2, "c", GS_TYPE_CHAR, GS_DIR_IN);
  ExpectParam(*c.op, 3, "b", GS_TYPE_BOOLEAN, GS_DIR_IN);
  ExpectParam(*c.op, 4, "sh", GS_TYPE_SHORT, GS_DIR_IN);
  ExpectParam(*c.op, 5, "i", GS_TYPE_INT, GS_DIR_IN);
  ExpectParam(*c.op, 6, "l", GS_TYPE_LONG, GS_DIR_IN);
  ExpectParam(*c.op, 7, "fl", GS_TYPE_FLOAT, GS_DIR_IN);
  ExpectParam(*c.op, 8, "d", GS_TYPE_DOUBLE, GS_DIR_IN);
  ExpectParam(*c.op, 9, "dump", GS_TYPE_FILE, GS_DIR_OUT);
  EXPECT_EQ(c.strs[0], "in.txt");
  EXPECT_EQ(c.strs[1], "two words; \"$HOME\"\n");
  EXPECT_EQ(c.args[2].i, 'z');
  EXPECT_EQ(c.args[3].i, 1);
  EXPECT_EQ(c.args[4].i, -3);
  EXPECT_EQ(c.args[5].i, 7);
  EXPECT_EQ(c.args[6].i, 1LL << 40);
  EXPECT_EQ(c.args[7].d, 1.5);
  EXPECT_EQ(c.args[8].d, 2.25);
  EXPECT_EQ(c.strs[9], "dump.txt");
  EXPECT_EQ(c.return_slot, nullptr);
}

TEST_F(GeneratedStubsTest, OutScalarsPassTheCallersPointers) {
  char c = 0;
  bool b = false;
  short sh = 0;
  int i = 0;
  long l = 0;
  float fl = 0;
  double d = 0;
  g_results = [](const gs_arg* a, void*) {
    *static_cast<char*>(a[1].ptr) = 'Q';
    *static_cast<bool*>(a[2].ptr) = true;
    *static_cast<short*>(a[3].ptr) = -9;
    *static_cast<int*>(a[4].ptr) = 123456;
    *static_cast<long*>(a[5].ptr) = -(1L << 50);
    *static_cast<float*>(a[6].ptr) = 0.25f;
    *static_cast<double*>(a[7].ptr) = 1e300;
  };
  outs("out.txt", &c, &b, &sh, &i, &l, &fl, &d);
  const RecordedCall& rec = OnlyCall();
  EXPECT_STREQ(rec.op->name, "outs");
  ExpectParam(*rec.op, 0, "f", GS_TYPE_FILE, GS_DIR_OUT);
  ExpectParam(*rec.op, 7, "d", GS_TYPE_DOUBLE, GS_DIR_OUT);
  EXPECT_EQ(rec.strs[0], "out.txt");
  EXPECT_EQ(rec.args[1].ptr, &c);
  EXPECT_EQ(rec.args[7].ptr, &d);
  EXPECT_EQ(c, 'Q');
  EXPECT_TRUE(b);
  EXPECT_EQ(sh, -9);
  EXPECT_EQ(i, 123456);
  EXPECT_EQ(l, -(1L << 50));
  EXPECT_EQ(fl, 0.25f);
  EXPECT_EQ(d, 1e300);
}

TEST_F(GeneratedStubsTest, InoutScalarsPassPointersToTheCurrentValues) {
  char c = 'a';
  bool b = true;
  short sh = 1;
  int i = 2;
  long l = 3;
  float fl = 4;
  double d = 5;
  inouts("io.txt", &c, &b, &sh, &i, &l, &fl, &d);
  const RecordedCall& rec = OnlyCall();
  ExpectParam(*rec.op, 0, "f", GS_TYPE_FILE, GS_DIR_INOUT);
  ExpectParam(*rec.op, 4, "i", GS_TYPE_INT, GS_DIR_INOUT);
  EXPECT_EQ(rec.args[1].ptr, &c);
  EXPECT_EQ(rec.args[2].ptr, &b);
  EXPECT_EQ(rec.args[3].ptr, &sh);
  EXPECT_EQ(rec.args[4].ptr, &i);
  EXPECT_EQ(rec.args[5].ptr, &l);
  EXPECT_EQ(rec.args[6].ptr, &fl);
  EXPECT_EQ(rec.args[7].ptr, &d);
}

// The stub's return slot starts at zero and its value is what the stub
// returns.
template <typename T>
void ExpectReturn(T (*stub)(T), const char* name, gs_type type, T arg,
                  T result) {
  g_calls.clear();
  g_results = [result](const gs_arg*, void* slot) {
    ASSERT_NE(slot, nullptr);
    T zero{};
    EXPECT_EQ(std::memcmp(slot, &zero, sizeof(T)), 0);
    *static_cast<T*>(slot) = result;
  };
  EXPECT_EQ(stub(arg), result) << name;
  ASSERT_EQ(g_calls.size(), 1u);
  EXPECT_STREQ(g_calls[0].op->name, name);
  EXPECT_EQ(g_calls[0].op->return_type, type);
}

TEST_F(GeneratedStubsTest, ReturnValuesComeFromTheReturnSlot) {
  ExpectReturn<char>(ret_char, "ret_char", GS_TYPE_CHAR, 'a', 'b');
  ExpectReturn<bool>(ret_boolean, "ret_boolean", GS_TYPE_BOOLEAN, false, true);
  ExpectReturn<short>(ret_short, "ret_short", GS_TYPE_SHORT, 1, -2);
  ExpectReturn<int>(ret_int, "ret_int", GS_TYPE_INT, 1, 1 << 30);
  ExpectReturn<long>(ret_long, "ret_long", GS_TYPE_LONG, 1, 1L << 60);
  ExpectReturn<float>(ret_float, "ret_float", GS_TYPE_FLOAT, 1, 3.5f);
  ExpectReturn<double>(ret_double, "ret_double", GS_TYPE_DOUBLE, 1, -0.125);
}

// everything.idl's @Constraints and @Timeout lines reach the table the
// runtime reads; operations without them have zeros (one core, no memory,
// no timeout).
TEST_F(GeneratedStubsTest, AnnotationsAreInTheOperationTable) {
  g_results = [](const gs_arg*, void* slot) {
    *static_cast<double*>(slot) = 0;
  };
  ret_double(1);
  g_results = nullptr;  // the others return nothing
  fails("why");
  nothing();
  ASSERT_EQ(g_calls.size(), 3u);
  EXPECT_EQ(g_calls[0].op->computing_units, 4);
  EXPECT_EQ(g_calls[0].op->memory_gb, 1.5);
  EXPECT_EQ(g_calls[0].op->timeout, 30);
  EXPECT_EQ(g_calls[1].op->computing_units, 0);
  EXPECT_EQ(g_calls[1].op->memory_gb, 2.0);
  EXPECT_EQ(g_calls[1].op->gpus, 2);
  EXPECT_EQ(g_calls[0].op->gpus, 0);
  EXPECT_EQ(g_calls[1].op->timeout, 0);
  EXPECT_EQ(g_calls[2].op->computing_units, 0);
  EXPECT_EQ(g_calls[2].op->memory_gb, 0);
}

// @Implements(ret_int) lines: ret_int's table lists its alternatives in
// IDL order, each with its own constraints; they list none.
TEST_F(GeneratedStubsTest, AlternativesAreInTheCalledOperationsTable) {
  g_results = [](const gs_arg*, void* slot) { *static_cast<int*>(slot) = 0; };
  ret_int(1);
  const RecordedCall& rec = OnlyCall();
  ASSERT_EQ(rec.op->num_alternatives, 2);
  const gs_operation* wide = rec.op->alternatives[0];
  const gs_operation* other = rec.op->alternatives[1];
  EXPECT_STREQ(wide->name, "ret_int_wide");
  EXPECT_EQ(wide->computing_units, 2);
  EXPECT_EQ(wide->num_alternatives, 0);
  EXPECT_EQ(wide->num_params, 1);
  EXPECT_EQ(wide->params[0].type, GS_TYPE_INT);
  EXPECT_STREQ(other->name, "ret_int_other");
  EXPECT_EQ(other->computing_units, 0);
  EXPECT_EQ(rec.op->computing_units, 0);
}

TEST_F(GeneratedStubsTest, ZeroParameterOperations) {
  nothing();
  g_results = [](const gs_arg*, void* slot) { *static_cast<int*>(slot) = 9; };
  EXPECT_EQ(no_params(), 9);
  ASSERT_EQ(g_calls.size(), 2u);
  EXPECT_STREQ(g_calls[0].op->name, "nothing");
  EXPECT_EQ(g_calls[0].op->num_params, 0);
  EXPECT_EQ(g_calls[0].op->params, nullptr);
  EXPECT_EQ(g_calls[0].return_slot, nullptr);
  EXPECT_STREQ(g_calls[1].op->name, "no_params");
  EXPECT_NE(g_calls[1].return_slot, nullptr);
}

// out/inout strings go as pointers to the caller's char*, which the
// runtime replaces with malloc'd copies; a string return value likewise.
TEST_F(GeneratedStubsTest, StringResultsPassTheCallersCharPointers) {
  char* o = nullptr;
  char* io = strdup("before");
  g_results = [](const gs_arg* a, void* slot) {
    char** out = static_cast<char**>(a[1].ptr);
    char** inout = static_cast<char**>(a[2].ptr);
    EXPECT_EQ(*out, nullptr);
    EXPECT_STREQ(*inout, "before");
    *out = strdup("o");
    std::free(*inout);
    *inout = strdup("io");
    ASSERT_NE(slot, nullptr);
    EXPECT_EQ(*static_cast<char**>(slot), nullptr);
    *static_cast<char**>(slot) = strdup("r");
  };
  char* r = strings("in", &o, &io);
  const RecordedCall& rec = OnlyCall();
  EXPECT_EQ(rec.op->return_type, GS_TYPE_STRING);
  ExpectParam(*rec.op, 0, "s", GS_TYPE_STRING, GS_DIR_IN);
  ExpectParam(*rec.op, 1, "o", GS_TYPE_STRING, GS_DIR_OUT);
  ExpectParam(*rec.op, 2, "io", GS_TYPE_STRING, GS_DIR_INOUT);
  EXPECT_EQ(rec.strs[0], "in");
  EXPECT_EQ(rec.args[1].ptr, &o);
  EXPECT_EQ(rec.args[2].ptr, &io);
  EXPECT_STREQ(r, "r");
  EXPECT_STREQ(o, "o");
  EXPECT_STREQ(io, "io");
  std::free(r);
  std::free(o);
  std::free(io);
}

// Arrays go as pointers to their first element; the table says how long
// each is (fixed, or 1 + the index of its length parameter).
TEST_F(GeneratedStubsTest, ArraysPassPointersAndTheirLengths) {
  const int a[3] = {1, 2, 3};
  const double v[2] = {0.5, 1.5};
  double o[2] = {};
  char io[2] = {'x', 'y'};
  g_results = [](const gs_arg* args, void*) {
    static_cast<double*>(args[3].ptr)[1] = 9;
  };
  arrays(a, v, 2, o, io);
  const RecordedCall& rec = OnlyCall();
  ExpectParam(*rec.op, 0, "a", GS_TYPE_INT, GS_DIR_IN);
  EXPECT_EQ(rec.op->params[0].array_length, 3);
  EXPECT_EQ(rec.op->params[0].length_param, 0);
  ExpectParam(*rec.op, 1, "v", GS_TYPE_DOUBLE, GS_DIR_IN);
  EXPECT_EQ(rec.op->params[1].array_length, 0);
  EXPECT_EQ(rec.op->params[1].length_param, 3);  // n, the third
  ExpectParam(*rec.op, 2, "n", GS_TYPE_LONG, GS_DIR_IN);
  EXPECT_EQ(rec.op->params[2].array_length, 0);
  EXPECT_EQ(rec.op->params[2].length_param, 0);
  ExpectParam(*rec.op, 3, "o", GS_TYPE_DOUBLE, GS_DIR_OUT);
  ExpectParam(*rec.op, 4, "io", GS_TYPE_CHAR, GS_DIR_INOUT);
  EXPECT_EQ(rec.op->params[4].array_length, 2);
  EXPECT_EQ(rec.args[0].ptr, a);
  EXPECT_EQ(rec.args[1].ptr, v);
  EXPECT_EQ(rec.args[2].i, 2);
  EXPECT_EQ(rec.args[3].ptr, o);
  EXPECT_EQ(rec.args[4].ptr, io);
  EXPECT_EQ(o[1], 9);
}

// `long[3] ret_long_array(...)`: the stub hands the runtime a pointer
// variable as the return slot and returns the malloc'd array stored there.
TEST_F(GeneratedStubsTest, ArrayReturnValuesComeBackMalloced) {
  g_results = [](const gs_arg*, void* slot) {
    ASSERT_NE(slot, nullptr);
    EXPECT_EQ(*static_cast<long**>(slot), nullptr);
    long* values = static_cast<long*>(std::malloc(3 * sizeof(long)));
    values[0] = 7;
    values[1] = 8;
    values[2] = 14;
    *static_cast<long**>(slot) = values;
  };
  long* got = ret_long_array(7);
  const RecordedCall& rec = OnlyCall();
  EXPECT_EQ(rec.op->return_type, GS_TYPE_LONG);
  EXPECT_EQ(rec.op->return_array_length, 3);
  ExpectParam(*rec.op, 0, "x", GS_TYPE_LONG, GS_DIR_IN);
  EXPECT_EQ(rec.args[0].i, 7);
  ASSERT_NE(got, nullptr);
  EXPECT_EQ(got[0], 7);
  EXPECT_EQ(got[1], 8);
  EXPECT_EQ(got[2], 14);
  std::free(got);
  // Single values keep 0.
  g_calls.clear();
  g_results = nullptr;
  ret_long(1);
  EXPECT_EQ(OnlyCall().op->return_array_length, 0);
}

TEST_F(GeneratedStubsTest, MixedFileInAndOut) {
  int n = 0;
  g_results = [](const gs_arg* a, void* slot) {
    *static_cast<int*>(a[2].ptr) = 11;
    *static_cast<int*>(slot) = -1;
  };
  EXPECT_EQ(mixed("c.txt", 0.5, &n), -1);
  EXPECT_EQ(n, 11);
  const RecordedCall& rec = OnlyCall();
  EXPECT_EQ(rec.op->return_type, GS_TYPE_INT);
  ExpectParam(*rec.op, 0, "c", GS_TYPE_FILE, GS_DIR_INOUT);
  ExpectParam(*rec.op, 1, "x", GS_TYPE_DOUBLE, GS_DIR_IN);
  ExpectParam(*rec.op, 2, "n", GS_TYPE_INT, GS_DIR_OUT);
  EXPECT_EQ(rec.strs[0], "c.txt");
  EXPECT_EQ(rec.args[1].d, 0.5);
}

}  // namespace
}  // namespace gs
