// gs_run_binary with real programs (sh, gzip, sort): the argv a template
// makes, the streams on files, exit statuses, and what a failure says.
#include "runtime/worker/run_binary.h"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace gs {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

// A directory of its own, removed after the test (this layer's tests see
// no test support library).
class TempDir {
 public:
  TempDir() {
    std::string tmpl = ::testing::TempDir() + "gsrt-binary-XXXXXX";
    if (::mkdtemp(tmpl.data())) path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string operator/(const std::string& name) const {
    return path_ + "/" + name;
  }

 private:
  std::string path_;
};

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void Spit(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

// void op(in string label, in double ratio, in boolean flag, in char c,
//         in File input, out File output, inout File log)
const gs_param_desc kParams[] = {{"label", GS_TYPE_STRING, GS_DIR_IN, 0, 0},
                                 {"ratio", GS_TYPE_DOUBLE, GS_DIR_IN, 0, 0},
                                 {"flag", GS_TYPE_BOOLEAN, GS_DIR_IN, 0, 0},
                                 {"c", GS_TYPE_CHAR, GS_DIR_IN, 0, 0},
                                 {"input", GS_TYPE_FILE, GS_DIR_IN, 0, 0},
                                 {"output", GS_TYPE_FILE, GS_DIR_OUT, 0, 0},
                                 {"log", GS_TYPE_FILE, GS_DIR_INOUT, 0, 0}};
const gs_operation kOp = {"op", GS_TYPE_VOID, 7, kParams, 0, 0,
                          0,    nullptr,      0, 0,       0};

struct Call {
  std::string label = "a b 'c' \"d\" $HOME;`x`";
  std::string input, output, log;
  gs_arg args[7] = {};
  explicit Call(const TempDir& dir)
      : input(dir / "in put"), output(dir / "out"), log(dir / "log") {
    args[0].str = label.c_str();
    args[1].d = 0.1;
    args[2].i = 1;
    args[3].i = 'x';
    args[4].str = input.c_str();
    args[5].str = output.c_str();
    args[6].str = log.c_str();
  }
};

const int kZero[] = {0};

TEST(RunBinaryTest, TemplateWordsTakeValuesWhole) {
  TempDir dir;
  Call call(dir);
  const char* const words[] = {"--label={label}", "{ratio}", "{flag}", "{c}",
                               "{input}",         "{nope}",  "{"};
  gs_binary b = {"prog", words, 7, -1, -1, -1, kZero, 1};
  EXPECT_THAT(BinaryArgv(b, kOp, call.args),
              ElementsAre("prog", "--label=" + call.label, "0.1", "true", "x",
                          call.input, "{nope}", "{"));
}

TEST(RunBinaryTest, WithoutATemplateEveryParameterButTheStreams) {
  TempDir dir;
  Call call(dir);
  gs_binary b = {"prog", nullptr, 0, 4, 5, -1, kZero, 1};
  EXPECT_THAT(BinaryArgv(b, kOp, call.args),
              ElementsAre("prog", call.label, "0.1", "true", "x", call.log));
}

TEST(RunBinaryTest, StreamsGoToTheirFilesAndArgumentsArriveIntact) {
  TempDir dir;
  Call call(dir);
  Spit(call.input, "from stdin\n");
  Spit(call.log, "before\n");
  // $0 is the label: a shell sees it only as a value, never as code.
  const char* const words[] = {
      "-c", "cat; printf '%s|%s\\n' \"$0\" \"$1\"; echo warned >&2", "{label}",
      "{ratio}"};
  gs_binary b = {"sh", words, 4, 4, 5, 6, kZero, 1};
  Status s = RunBinary(b, kOp, call.args);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(Slurp(call.output), "from stdin\n" + call.label + "|0.1\n");
  EXPECT_EQ(Slurp(call.log), "before\nwarned\n");  // inout: appended to
}

// The job's standard error as a worker has it: a file.
class StderrToFile {
 public:
  explicit StderrToFile(const std::string& path)
      : saved_(::dup(STDERR_FILENO)) {
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    std::fflush(stderr);
    ::dup2(fd, STDERR_FILENO);
    ::close(fd);
  }
  ~StderrToFile() {
    ::dup2(saved_, STDERR_FILENO);
    ::close(saved_);
  }

 private:
  int saved_;
};

TEST(RunBinaryTest, AFailingStatusNamesTheProgramAndItsErrorOutput) {
  TempDir dir;
  Call call(dir);
  Spit(dir / "stderr", "the worker's own earlier line\n");
  StderrToFile job_stderr(dir / "stderr");
  const char* const words[] = {"-c", "echo first >&2; echo last >&2; exit 3"};
  gs_binary b = {"sh", words, 2, -1, -1, -1, kZero, 1};
  Status s = RunBinary(b, kOp, call.args);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("program sh -c 'echo first"));
  EXPECT_THAT(s.message(), HasSubstr("exited with status 3 (success: 0)"));
  // Only what the program wrote, which the job's stderr keeps.
  EXPECT_THAT(s.message(),
              HasSubstr("its standard error ended with:\n  first\n  last"));
  EXPECT_THAT(s.message(), Not(HasSubstr("earlier line")));
  EXPECT_EQ(Slurp(dir / "stderr"),
            "the worker's own earlier line\nfirst\nlast\n");
  const int zero_or_three[] = {0, 3};
  gs_binary tolerant = {"sh", words, 2, -1, -1, -1, zero_or_three, 2};
  EXPECT_TRUE(RunBinary(tolerant, kOp, call.args).ok());
  gs_binary any = {"sh", words, 2, -1, -1, -1, nullptr, 0};
  EXPECT_TRUE(RunBinary(any, kOp, call.args).ok());
}

TEST(RunBinaryTest, ErrorsWrittenToAStderrFileAreQuotedToo) {
  TempDir dir;
  Call call(dir);
  const char* const words[] = {"-c", "echo only here >&2; exit 1"};
  gs_binary b = {"sh", words, 2, -1, -1, 6, kZero, 1};
  Status s = RunBinary(b, kOp, call.args);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("ended with:\n  only here"));
  EXPECT_EQ(Slurp(call.log), "only here\n");
}

TEST(RunBinaryTest, ASignalIsNamed) {
  TempDir dir;
  Call call(dir);
  const char* const words[] = {"-c", "kill -SEGV $$"};
  gs_binary b = {"sh", words, 2, -1, -1, -1, kZero, 1};
  Status s = RunBinary(b, kOp, call.args);
  EXPECT_THAT(s.message(), HasSubstr("was killed by SIGSEGV"));
}

TEST(RunBinaryTest, AMissingProgramOrInputSaysWhatToDo) {
  TempDir dir;
  Call call(dir);
  gs_binary missing = {
      "gsrt-no-such-program", nullptr, 0, -1, -1, -1, kZero, 1};
  Status s = RunBinary(missing, kOp, call.args);
  EXPECT_THAT(s.message(),
              HasSubstr("cannot run program gsrt-no-such-program"));
  EXPECT_THAT(s.message(), HasSubstr("No such file or directory; install it"));
  // The input file was never made.
  const char* const words[] = {"-c", "cat"};
  gs_binary no_input = {"sh", words, 2, 4, -1, -1, kZero, 1};
  Status in = RunBinary(no_input, kOp, call.args);
  EXPECT_THAT(in.message(), HasSubstr("cannot open stdin for program sh"));
}

// `parts` as an @MPI job of 4 ranks, 2 per node, under `runner`.
gs_binary FourRanksTwoPerNode(const char* runner) {
  gs_binary b = {"parts", nullptr, 0, -1, -1, -1, kZero, 1};
  b.mpi_runner = runner;
  b.mpi_processes = 4;
  b.mpi_per_node = 2;
  return b;
}

TEST(RunBinaryTest, AnMpiJobStartsItsRanksWithItsRunner) {
  gs_binary b = FourRanksTwoPerNode("mpirun");
  const std::vector<std::string> program = {"parts", "out file"};
  // On one host: its N cores are the slots.
  EXPECT_THAT(MpiArgv(b, program, MpiSite{}),
              ElementsAre("mpirun", "-n", "4", "--bind-to", "none", "--host",
                          "localhost:4", "parts", "out file"));
  // In the batch job gsrt submitted for it: the allocation's nodes.
  EXPECT_THAT(MpiArgv(b, program, MpiSite{true, 4}),
              ElementsAre("mpirun", "-n", "4", "--bind-to", "none", "--map-by",
                          "ppr:2:node", "parts", "out file"));
  // In a pilot's job of one task: this node only, not that allocation.
  EXPECT_THAT(MpiArgv(b, program, MpiSite{true, 1}),
              ElementsAre("mpirun", "-n", "4", "--bind-to", "none", "--host",
                          "localhost:4", "--mca", "ras", "^slurm", "parts",
                          "out file"));
  b.mpi_runner = "srun";
  EXPECT_THAT(MpiArgv(b, program, MpiSite{true, 4}),
              ElementsAre("srun", "--ntasks=4", "--ntasks-per-node=2",
                          "--kill-on-bad-exit=1", "parts", "out file"));
  b.mpi_runner = "mpiexec";
  EXPECT_THAT(MpiArgv(b, program, MpiSite{}),
              ElementsAre("mpiexec", "-n", "4", "parts", "out file"));
}

TEST(RunBinaryTest, AGangsRunnerStartsTheRanksOnItsNodes) {
  gs_binary b = FourRanksTwoPerNode("srun");
  const std::vector<std::string> program = {"parts", "out file"};
  MpiSite site{true, 1};  // an allocation node's agent: one task
  site.gang = ParseMpiNodes("n2:2,n3:2");
  EXPECT_THAT(
      MpiArgv(b, program, site),
      ElementsAre("srun", "--overlap", "--nodes=2", "--nodelist=n2,n3",
                  "--ntasks=4", "--ntasks-per-node=2", "--cpus-per-task=1",
                  "--kill-on-bad-exit=1", "parts", "out file"));
  b.mpi_runner = "mpirun";
  EXPECT_THAT(MpiArgv(b, program, site),
              ElementsAre("mpirun", "-n", "4", "--bind-to", "none", "--host",
                          "n2:2,n3:2", "--mca", "ras", "^slurm", "--mca",
                          "plm_slurm_args", "--overlap --nodelist=n3", "parts",
                          "out file"));
  b.mpi_runner = "mpiexec";
  EXPECT_THAT(MpiArgv(b, program, MpiSite{false, 0, site.gang}),
              ElementsAre("mpiexec", "-n", "4", "--host", "n2:2,n3:2", "parts",
                          "out file"));
}

TEST(RunBinaryTest, ARunnerThatLostANodeIsTold) {
  EXPECT_TRUE(
      MpiLostANode("ORTE has lost communication with a remote daemon.\n"
                   "  Remote daemon: [[15397,0],1] on node n2\n"));
  EXPECT_TRUE(MpiLostANode(
      "An ORTE daemon has unexpectedly failed after launch and before\n"));
  EXPECT_TRUE(MpiLostANode("srun: error: Node failure on n2\n"));
  EXPECT_FALSE(MpiLostANode(
      "mpirun noticed that process rank 1 with PID 7 on node n1 exited on "
      "signal 6 (Aborted).\n"));
}

TEST(RunBinaryTest, GangNodesParseOrNotAtAll) {
  using Nodes = std::vector<std::pair<std::string, int>>;
  EXPECT_EQ(ParseMpiNodes("n1:2"), (Nodes{{"n1", 2}}));
  EXPECT_EQ(ParseMpiNodes("a-b.c:3,d:1"), (Nodes{{"a-b.c", 3}, {"d", 1}}));
  for (const char* bad : {"n1", "n1:", ":2", "n1:0", "n1:x", "n1:2,", ""}) {
    EXPECT_TRUE(ParseMpiNodes(bad).empty()) << bad;
  }
}

TEST(RunBinaryTest, TheRunnersReportOfTheFailedRankIsFound) {
  EXPECT_EQ(MpiFailureReport(
                "[vm:1] *** End of error message ***\n"
                "--------------\n"
                "mpirun noticed that process rank 1 with PID 0 on node vm "
                "exited on signal 6 (Aborted).\n"
                "--------------\n"),
            "mpirun noticed that process rank 1 with PID 0 on node vm exited "
            "on signal 6 (Aborted).");
  EXPECT_EQ(MpiFailureReport("srun: error: n1: task 1: Aborted\nmore\n"),
            "srun: error: n1: task 1: Aborted");
  EXPECT_EQ(MpiFailureReport("rank 0 of 4\nall fine\n"), "");
}

TEST(RunBinaryTest, AMissingRunnerSaysWhatToInstall) {
  TempDir dir;
  Call call(dir);
  gs_binary b = {"true", nullptr, 0, -1, -1, -1, kZero, 1};
  b.mpi_runner = "gsrt-no-such-mpirun";
  b.mpi_processes = 2;
  Status s = RunBinary(b, kOp, call.args);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("cannot run MPI job gsrt-no-such-mpirun"));
  EXPECT_THAT(s.message(), HasSubstr("install the MPI runner on the host"));
}

TEST(RunBinaryTest, TheCApiWritesTheMessage) {
  TempDir dir;
  Call call(dir);
  const char* const words[] = {"-c", "exit 4"};
  gs_binary b = {"sh", words, 2, -1, -1, -1, kZero, 1};
  char error[32];
  EXPECT_EQ(gs_run_binary(&b, &kOp, call.args, error, sizeof error), 1);
  EXPECT_EQ(std::string(error), std::string("program sh -c 'exit 4' exited w"));
  const char* const ok_words[] = {"-c", "exit 0"};
  gs_binary ok = {"sh", ok_words, 2, -1, -1, -1, kZero, 1};
  EXPECT_EQ(gs_run_binary(&ok, &kOp, call.args, error, sizeof error), 0);
}

}  // namespace
}  // namespace gs
