// The worker's command line run in-process with a hand-written entry table,
// the way a generated NAME-worker.cc calls gs_worker_main.
#include "runtime/worker/worker_main.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "runtime/base/worker_failure.h"

namespace gs {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::StartsWith;

int g_calls = 0;

// void add(in File a, inout double acc): acc += the number in file a.
const gs_param_desc kAddParams[] = {{"a", GS_TYPE_FILE, GS_DIR_IN},
                                    {"acc", GS_TYPE_DOUBLE, GS_DIR_INOUT}};
const gs_operation kAdd = {"add", GS_TYPE_VOID, 2, kAddParams, 0, 0, 0};
void TrampAdd(const gs_arg* a, void*) {
  ++g_calls;
  std::ifstream in(a[0].str);
  double value = 0;
  in >> value;
  *static_cast<double*>(a[1].ptr) += value;
}

// long count(in string text, out int spaces): length and spaces of text.
const gs_param_desc kCountParams[] = {{"text", GS_TYPE_STRING, GS_DIR_IN},
                                      {"spaces", GS_TYPE_INT, GS_DIR_OUT}};
const gs_operation kCount = {"count", GS_TYPE_LONG, 2, kCountParams, 0, 0, 0};
void TrampCount(const gs_arg* a, void* ret) {
  ++g_calls;
  std::string text = a[0].str;
  *static_cast<long*>(ret) = static_cast<long>(text.size());
  *static_cast<int*>(a[1].ptr) =
      static_cast<int>(std::count(text.begin(), text.end(), ' '));
}

// void boom(in int how): throws a std::exception or something else.
const gs_param_desc kBoomParams[] = {{"how", GS_TYPE_INT, GS_DIR_IN}};
const gs_operation kBoom = {"boom", GS_TYPE_VOID, 1, kBoomParams, 0, 0, 0};
void TrampBoom(const gs_arg* a, void*) {
  ++g_calls;
  if (a[0].i == 1) throw std::runtime_error("disk full");
  throw 42;
}

const gs_operation kTick = {"tick", GS_TYPE_VOID, 0, nullptr, 0, 0, 0};
void TrampTick(const gs_arg*, void*) { ++g_calls; }

const gs_worker_entry kEntries[] = {{&kAdd, TrampAdd},
                                    {&kCount, TrampCount},
                                    {&kBoom, TrampBoom},
                                    {&kTick, TrampTick}};

class WorkerMainTest : public ::testing::Test {
 protected:
  void SetUp() override {
    g_calls = 0;
    std::string pattern = fs::temp_directory_path() / "gsrt-worker-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  int Main(std::vector<std::string> args) {
    std::vector<const char*> argv = {"calc-worker"};
    for (const std::string& a : args) argv.push_back(a.c_str());
    out_.str("");
    err_.str("");
    return RunWorker(static_cast<int>(argv.size()), argv.data(), "calc",
                     kEntries, 4, out_, err_);
  }
  std::string Result() const { return dir_ + "/result"; }
  std::string ReadResult() const {
    std::ifstream in(Result(), std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }

  std::string dir_;
  std::ostringstream out_;
  std::ostringstream err_;
};

TEST_F(WorkerMainTest, VersionListAndHelp) {
  EXPECT_EQ(Main({"--version"}), kWorkerOk);
  EXPECT_EQ(out_.str(), std::string("gsrt-worker calc ") + GSRT_VERSION + "\n");
  EXPECT_EQ(Main({"--list"}), kWorkerOk);
  EXPECT_EQ(out_.str(),
            "void add(in File a, inout double acc)\n"
            "long count(in string text, out int spaces)\n"
            "void boom(in int how)\n"
            "void tick()\n");
  EXPECT_EQ(Main({"--help"}), kWorkerOk);
  EXPECT_THAT(out_.str(), StartsWith("usage: calc-worker run OP RESULT_PATH"));
  EXPECT_EQ(err_.str(), "");
}

TEST_F(WorkerMainTest, UsageErrorsExitTwo) {
  EXPECT_EQ(Main({}), kWorkerBadCall);
  EXPECT_THAT(err_.str(), StartsWith("gsrt-worker calc: no command\nusage:"));
  EXPECT_EQ(Main({"walk"}), kWorkerBadCall);
  EXPECT_THAT(err_.str(), StartsWith("gsrt-worker calc: unknown command "
                                     "'walk'\n"));
  EXPECT_EQ(Main({"run", "tick"}), kWorkerBadCall);
  EXPECT_THAT(err_.str(), HasSubstr("run needs OP and RESULT_PATH"));
  EXPECT_EQ(Main({"run", "tick", ""}), kWorkerBadCall);
  EXPECT_EQ(g_calls, 0);
}

TEST_F(WorkerMainTest, RunsInoutScalarAndFile) {
  std::ofstream(dir_ + "/a") << "2.5";
  ASSERT_EQ(Main({"run", "add", Result(), dir_ + "/a", "0x1p+0"}), kWorkerOk)
      << err_.str();
  EXPECT_EQ(g_calls, 1);
  EXPECT_EQ(ReadResult(), "0x1.cp+1\n");  // 1 + 2.5 = 3.5
}

TEST_F(WorkerMainTest, RunsStringWithShellCharactersAndReportsReturnFirst) {
  std::string text = "a b; \"c\" $d\n'e' f";
  ASSERT_EQ(Main({"run", "count", Result(), text, ""}), kWorkerOk);
  EXPECT_EQ(ReadResult(), std::to_string(text.size()) + "\n4\n");
}

TEST_F(WorkerMainTest, NoResultsStillWritesAnEmptyResultFile) {
  ASSERT_EQ(Main({"run", "tick", Result()}), kWorkerOk);
  EXPECT_TRUE(fs::exists(Result()));
  EXPECT_EQ(ReadResult(), "");
}

// The message goes to stderr and, for the adapter, to the result file.
TEST_F(WorkerMainTest, ExceptionsExitOneWithTheirMessageInTheResultFile) {
  EXPECT_EQ(Main({"run", "boom", Result(), "1"}), kWorkerFunctionFailed);
  EXPECT_EQ(err_.str(),
            "gsrt-worker calc: operation 'boom' failed: disk full\n");
  EXPECT_EQ(DecodeThrown(ReadResult()), "disk full");
  EXPECT_EQ(Main({"run", "boom", Result(), "2"}), kWorkerFunctionFailed);
  EXPECT_EQ(err_.str(),
            "gsrt-worker calc: operation 'boom' failed: an exception not "
            "derived from std::exception\n");
  EXPECT_EQ(DecodeThrown(ReadResult()),
            "an exception not derived from std::exception");
}

TEST_F(WorkerMainTest, BadCallsExitTwoWithoutCallingTheFunction) {
  EXPECT_EQ(Main({"run", "mul", Result()}), kWorkerBadCall);
  EXPECT_EQ(err_.str(),
            "gsrt-worker calc: unknown operation 'mul'; this "
            "worker runs: add, count, boom, tick\n");
  EXPECT_EQ(Main({"run", "add", Result(), "a"}), kWorkerBadCall);
  EXPECT_EQ(err_.str(),
            "gsrt-worker calc: operation 'add' takes 2 arguments "
            "(a, acc), got 1\n");
  EXPECT_EQ(Main({"run", "add", Result(), "a", "one"}), kWorkerBadCall);
  EXPECT_EQ(err_.str(),
            "gsrt-worker calc: operation 'add', parameter 'acc' "
            "(inout double): cannot decode 'one'\n");
  EXPECT_EQ(g_calls, 0);
  EXPECT_FALSE(fs::exists(Result()));
}

TEST_F(WorkerMainTest, UnwritableResultExitsThree) {
  EXPECT_EQ(Main({"run", "tick", dir_ + "/no/such/dir/result"}),
            kWorkerResultFailed);
  EXPECT_EQ(g_calls, 1);
  EXPECT_THAT(err_.str(), HasSubstr("operation 'tick' finished but its result "
                                    "file was not written: cannot create "));
}

TEST_F(WorkerMainTest, GsWorkerMainUsesTheStandardStreams) {
  std::string result = Result();
  char* argv[] = {const_cast<char*>("calc-worker"), const_cast<char*>("run"),
                  const_cast<char*>("tick"), result.data(), nullptr};
  EXPECT_EQ(gs_worker_main(4, argv, "calc", kEntries, 4), 0);
  EXPECT_TRUE(fs::exists(result));
  ::testing::internal::CaptureStdout();
  char* version[] = {const_cast<char*>("calc-worker"),
                     const_cast<char*>("--version"), nullptr};
  EXPECT_EQ(gs_worker_main(2, version, "calc", kEntries, 4), 0);
  EXPECT_EQ(::testing::internal::GetCapturedStdout(),
            std::string("gsrt-worker calc ") + GSRT_VERSION + "\n");
}

}  // namespace
}  // namespace gs
