// The worker program that gsstubgen generated from testdata/everything.idl,
// linked with testdata/everything_functions.cc and gsrt_worker, run as a
// process exactly as the runtime's adapters run it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "stubgen/test_support.h"

namespace gs {
namespace {

using ::testing::HasSubstr;

const std::string kWorker = GSRT_EVERYTHING_WORKER;

class GeneratedWorkerTest : public ::testing::Test {
 protected:
  // `NAME-worker run OP RESULT ARG...`; the result goes to dir_/result.
  testing::ProcessResult RunOp(const std::string& op,
                               std::vector<std::string> args) {
    std::vector<std::string> argv = {kWorker, "run", op, Result()};
    argv.insert(argv.end(), args.begin(), args.end());
    return testing::RunProcess(argv, dir_.path());
  }
  std::string Result() const { return dir_ / "result"; }
  std::string ResultText() const { return testing::ReadFileOrEmpty(Result()); }
  bool HasResult() const { return std::filesystem::exists(Result()); }

  testing::TempDir dir_;
};

TEST_F(GeneratedWorkerTest, VersionAndList) {
  testing::ProcessResult r =
      testing::RunProcess({kWorker, "--version"}, dir_.path());
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out,
            std::string("gsrt-worker everything ") + GSRT_VERSION + "\n");
  r = testing::RunProcess({kWorker, "--list"}, dir_.path());
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out,
              HasSubstr("void ins(in File f, in string s, in char c, in "
                        "boolean b, in short sh, in int i, in long l, in "
                        "float fl, in double d, out File dump)\n"));
  EXPECT_THAT(r.out, HasSubstr("\nint mixed(inout File c, in double x, out "
                               "int n)\n"));
  EXPECT_THAT(r.out, HasSubstr("\nstring strings(in string s, out string o, "
                               "inout string io)\n"));
  EXPECT_THAT(r.out, HasSubstr("\nvoid arrays(in int[3] a, in double[n] v, "
                               "in long n, out double[n] o, inout char[2] "
                               "io)\n"));
  EXPECT_THAT(r.out, HasSubstr("\nint ret_int_wide(in int y)\n"));
  EXPECT_THAT(r.out, HasSubstr("\nlong[3] ret_long_array(in long x)\n"));
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 21);
  r = testing::RunProcess({kWorker}, dir_.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("usage:"));
}

TEST_F(GeneratedWorkerTest, InArgumentsReachTheFunction) {
  testing::WriteFile(dir_ / "in.txt", "hello");
  std::string s = "two words; \"$HOME\" 'q'\nline2";
  testing::ProcessResult r =
      RunOp("ins", {dir_ / "in.txt", s, "122", "1", "-3", "7", "1099511627776",
                    "0x1.8p+0", "0x1.2p+1", dir_ / "dump.txt"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(testing::ReadFileOrEmpty(dir_ / "dump.txt"),
            "f=hello\ns=" + s +
                "\nc=122\nb=1\nsh=-3\ni=7\nl=1099511627776\nfl=1.5\nd=2.25\n");
  EXPECT_TRUE(HasResult());
  EXPECT_EQ(ResultText(), "");
}

TEST_F(GeneratedWorkerTest, OutScalarsAreReportedInOrder) {
  testing::ProcessResult r =
      RunOp("outs", {dir_ / "o.txt", "", "", "", "", "", "", ""});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ResultText(), "65\n1\n-7\n42\n1099511627776\n0x1p-1\n-0x1.2p+1\n");
  EXPECT_EQ(testing::ReadFileOrEmpty(dir_ / "o.txt"), "outs\n");
}

TEST_F(GeneratedWorkerTest, InoutScalarsAreReadAndReported) {
  testing::WriteFile(dir_ / "io.txt", "before\n");
  testing::ProcessResult r = RunOp("inouts", {dir_ / "io.txt", "97", "0", "1",
                                              "2", "3", "0x1p+0", "0x1.8p+1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ResultText(), "98\n1\n2\n3\n4\n0x1p+1\n0x1.8p+2\n");
  EXPECT_EQ(testing::ReadFileOrEmpty(dir_ / "io.txt"), "before\ninouts\n");
}

TEST_F(GeneratedWorkerTest, ReturnValueOfEveryType) {
  struct Case {
    const char* op;
    const char* arg;
    const char* result;
  };
  for (const Case& c :
       {Case{"ret_char", "97", "98\n"}, Case{"ret_boolean", "0", "1\n"},
        Case{"ret_short", "-32768", "-32767\n"}, Case{"ret_int", "41", "42\n"},
        Case{"ret_long", "-9000000000", "-8999999999\n"},
        Case{"ret_float", "0x1.8p+0", "0x1.8p+1\n"},
        Case{"ret_double", "-0x1p-3", "-0x1p-2\n"}}) {
    testing::ProcessResult r = RunOp(c.op, {c.arg});
    ASSERT_EQ(r.exit_code, 0) << c.op << ": " << r.err;
    EXPECT_EQ(ResultText(), c.result) << c.op;
  }
}

// The engine names the alternative it chose; the worker runs that function.
TEST_F(GeneratedWorkerTest, AlternativeImplementationsRunByTheirName) {
  ASSERT_EQ(RunOp("ret_int", {"1"}).exit_code, 0);
  EXPECT_EQ(ResultText(), "2\n");
  ASSERT_EQ(RunOp("ret_int_wide", {"1"}).exit_code, 0);
  EXPECT_EQ(ResultText(), "101\n");
  ASSERT_EQ(RunOp("ret_int_other", {"1"}).exit_code, 0);
  EXPECT_EQ(ResultText(), "201\n");
}

TEST_F(GeneratedWorkerTest, ZeroParametersAndMixed) {
  ASSERT_EQ(RunOp("nothing", {}).exit_code, 0);
  EXPECT_TRUE(HasResult());
  EXPECT_EQ(ResultText(), "");
  ASSERT_EQ(RunOp("no_params", {}).exit_code, 0);
  EXPECT_EQ(ResultText(), "7\n");
  testing::WriteFile(dir_ / "c.txt", "x\n");
  ASSERT_EQ(RunOp("mixed", {dir_ / "c.txt", "0x1p-1", ""}).exit_code, 0);
  EXPECT_EQ(testing::ReadFileOrEmpty(dir_ / "c.txt"), "x\n0.500000\n");
  EXPECT_EQ(ResultText(), "-1\n11\n");  // return value first, then n
}

// The return value, then o, then io, each escaped onto one line.
TEST_F(GeneratedWorkerTest, StringResultsAreReportedOnOneLineEach) {
  testing::ProcessResult r = RunOp("strings", {"a b", "", "was\nhere"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ResultText(), "ret\nout:a b\\nline2\\\\\nwas\\nhere+a b\n");
}

// o[i] = v[i] * a[i % 3] for n = 4; io's chars each up by one.
TEST_F(GeneratedWorkerTest, ArraysReachTheFunctionAndComeBack) {
  testing::ProcessResult r = RunOp(
      "arrays", {"1,2,3", "0x1p+0,0x1p+0,0x1p+0,0x1p-1", "4", "", "97,98"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ResultText(), "0x1p+0,0x1p+1,0x1.8p+1,0x1p-1\n98,99\n");
  // A malformed array is a bad call, named.
  r = RunOp("arrays", {"1,2", "", "0", "", "97,98"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("operation 'arrays', parameter 'a' (in "
                               "int[3]): expected 3 values, got 2"));
}

// The function's malloc'd array, on one line (and freed by the worker).
TEST_F(GeneratedWorkerTest, ArrayReturnValueIsReportedOnOneLine) {
  testing::ProcessResult r = RunOp("ret_long_array", {"-9000000000"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ResultText(), "-9000000000,-8999999999,-18000000000\n");
}

TEST_F(GeneratedWorkerTest, ArrayReturnValueLeftNullFailsTheJobNamingIt) {
  testing::ProcessResult r = RunOp("null_array", {});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("operation 'null_array': the returned array "
                               "is NULL; return a malloc'd array of 2 "
                               "double"));
  EXPECT_THAT(ResultText(), HasSubstr("the returned array is NULL"));
}

TEST_F(GeneratedWorkerTest, StringResultLeftNullFailsTheJobNamingIt) {
  testing::ProcessResult r = RunOp("null_string", {""});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("operation 'null_string': out string 'o' is "
                               "NULL; set it to a malloc'd string"));
  EXPECT_THAT(ResultText(), HasSubstr("out string 'o' is NULL"));
}

// No results, but the message, where the adapter reads it (issue 13).
TEST_F(GeneratedWorkerTest, ExceptionInTheFunctionExitsOneWithItsMessage) {
  testing::ProcessResult r = RunOp("fails", {"disk on fire"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("operation 'fails' failed: disk on fire"));
  EXPECT_THAT(ResultText(), HasSubstr("disk on fire"));
}

TEST_F(GeneratedWorkerTest, BadCallsExitTwo) {
  testing::ProcessResult r = RunOp("nope", {});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown operation 'nope'"));
  r = RunOp("ret_int", {});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("operation 'ret_int' takes 1 argument (x), "
                               "got 0"));
  r = RunOp("ret_int", {"4x"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("operation 'ret_int', parameter 'x' (in "
                               "int): cannot decode '4x'"));
  EXPECT_FALSE(HasResult());
}

TEST_F(GeneratedWorkerTest, UnwritableResultExitsThree) {
  testing::ProcessResult r = testing::RunProcess(
      {kWorker, "run", "nothing", dir_ / "missing/result"}, dir_.path());
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_THAT(r.err, HasSubstr("result file was not written"));
}

}  // namespace
}  // namespace gs
