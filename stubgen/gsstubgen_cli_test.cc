// gsstubgen's command line, in-process (RunGsstubgen) and through the built
// binary (GSRT_GSSTUBGEN), including "writes nothing on error".
#include "stubgen/gsstubgen_cli.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sstream>

#include "stubgen/test_support.h"

namespace gs {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

const std::string kTestdata = GSRT_STUBGEN_TESTDATA;
const std::string kGsstubgen = GSRT_GSSTUBGEN;

struct CliResult {
  int code;
  std::string out;
  std::string err;
};

CliResult RunCli(std::vector<std::string> args) {
  std::ostringstream out, err;
  int code = RunGsstubgen(args, out, err);
  return {code, out.str(), err.str()};
}

TEST(GsstubgenCliTest, HelpAndVersion) {
  CliResult help = RunCli({"--help"});
  EXPECT_EQ(help.code, 0);
  EXPECT_THAT(help.out, StartsWith("usage: gsstubgen [-o OUTDIR] FILE.idl\n"));
  for (const char* part :
       {"-o,--output", "--version", "--help", "FILE.idl", "NAME-worker.cc",
        "NAME-binaries.cc", "Exit codes"}) {
    EXPECT_THAT(help.out, HasSubstr(part));
  }
  CliResult version = RunCli({"--version"});
  EXPECT_EQ(version.code, 0);
  EXPECT_EQ(version.out, std::string("gsstubgen ") + GSRT_VERSION + "\n");
}

TEST(GsstubgenCliTest, UsageErrors) {
  CliResult none = RunCli({});
  EXPECT_EQ(none.code, kGsstubgenUsage);
  EXPECT_THAT(none.err, StartsWith("gsstubgen: "));
  EXPECT_THAT(none.err, HasSubstr("FILE.idl is required"));
  EXPECT_EQ(RunCli({"-o"}).code, kGsstubgenUsage);
  CliResult bogus = RunCli({"--bogus", "a.idl"});
  EXPECT_EQ(bogus.code, kGsstubgenUsage);
  EXPECT_THAT(bogus.err, StartsWith("gsstubgen: "));
  EXPECT_THAT(bogus.err, HasSubstr("--bogus"));
  EXPECT_EQ(RunCli({"a.idl", "b.idl"}).code, kGsstubgenUsage);
  CliResult empty = RunCli({"-o", "", "a.idl"});
  EXPECT_EQ(empty.code, kGsstubgenUsage);
  EXPECT_EQ(empty.err, "gsstubgen: empty output directory\n");
  EXPECT_EQ(empty.out, "");
}

TEST(GsstubgenCliTest, EveryFormOfTheOutputOption) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"-o", "d", "x.idl"},
                                             {"-od", "x.idl"},
                                             {"--output=d", "x.idl"},
                                             {"x.idl", "--output", "d"}}) {
    GsstubgenOptions options;
    std::ostringstream out, err;
    EXPECT_EQ(ParseGsstubgenArgs(args, &options, out, err), std::nullopt)
        << err.str();
    EXPECT_EQ(options.out_dir, "d");
    EXPECT_EQ(options.idl_path, "x.idl");
  }
  GsstubgenOptions defaults;
  std::ostringstream out, err;
  ASSERT_EQ(ParseGsstubgenArgs({"x.idl"}, &defaults, out, err), std::nullopt);
  EXPECT_EQ(defaults.out_dir, ".");
}

TEST(GsstubgenCliTest, WritesTheFourFilesMatchingTheGoldens) {
  testing::TempDir dir;
  struct Case {
    std::vector<std::string> args;
    std::string out;
  };
  std::string idl = kTestdata + "/matmul.idl";
  for (const Case& c : {Case{{"-o", dir / "a", idl}, dir / "a"},
                        Case{{"--output=" + (dir / "b"), idl}, dir / "b"},
                        Case{{"-o" + (dir / "c"), idl}, dir / "c"}}) {
    CliResult r = RunCli(c.args);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    const std::string& out = c.out;
    EXPECT_EQ(testing::ListDir(out),
              (std::vector<std::string>{"matmul-binaries.cc", "matmul-stubs.cc",
                                        "matmul-worker.cc", "matmul.h"}));
    for (const char* name : {"matmul.h", "matmul-stubs.cc", "matmul-worker.cc",
                             "matmul-binaries.cc"}) {
      EXPECT_EQ(testing::ReadFileOrEmpty(out + "/" + name),
                testing::ReadFileOrEmpty(kTestdata + "/" + name + ".golden"))
          << name;
    }
  }
}

TEST(GsstubgenCliTest, ParseErrorIsReportedWithFileLineColumn) {
  testing::TempDir dir;
  testing::WriteFile(dir / "bad.idl", "interface bad {\n  File f();\n};\n");
  CliResult r = RunCli({"-o", dir / "out", dir / "bad.idl"});
  EXPECT_EQ(r.code, kGsstubgenError);
  EXPECT_EQ(r.err, dir / "bad.idl" +
                       ":2:3: error: File cannot be a return type; use an out "
                       "File parameter\n");
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
}

TEST(GsstubgenCliTest, UnreadableFileAndUnwritableDirectory) {
  testing::TempDir dir;
  CliResult r = RunCli({"-o", dir.path(), dir / "missing.idl"});
  EXPECT_EQ(r.code, kGsstubgenError);
  EXPECT_EQ(r.err, "gsstubgen: cannot read " + (dir / "missing.idl") +
                       ": No such file or directory\n");

  // An output "directory" that is a regular file cannot be created.
  testing::WriteFile(dir / "file", "");
  r = RunCli({"-o", dir / "file", kTestdata + "/matmul.idl"});
  EXPECT_EQ(r.code, kGsstubgenError);
  EXPECT_THAT(r.err, StartsWith("gsstubgen: cannot create output directory " +
                                (dir / "file")));
}

// The real binary: a bad IDL must leave the output directory exactly as it
// was, old outputs included.
TEST(GsstubgenBinaryTest, WritesNothingOnError) {
  testing::TempDir dir;
  std::string out = dir / "out";
  std::filesystem::create_directories(out);
  testing::WriteFile(out + "/app.h", "old header");
  testing::WriteFile(dir / "app.idl",
                     "interface app {\n  void f(in File a);\n"
                     "  void g(inout student st);\n};\n");
  testing::ProcessResult r =
      testing::RunProcess({kGsstubgen, "-o", out, dir / "app.idl"}, dir.path());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, ::testing::StartsWith(
                         dir / "app.idl" +
                         ":3:16: error: unknown type 'student'; expected "));
  EXPECT_THAT(r.err, ::testing::HasSubstr("declare it 'inout File st'"));
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(testing::ListDir(out), std::vector<std::string>{"app.h"});
  EXPECT_EQ(testing::ReadFileOrEmpty(out + "/app.h"), "old header");
}

TEST(GsstubgenBinaryTest, WritesOutputsOnSuccess) {
  testing::TempDir dir;
  testing::ProcessResult r = testing::RunProcess(
      {kGsstubgen, "-o", dir / "gen", kTestdata + "/example.idl"}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(testing::ListDir(dir / "gen"),
            (std::vector<std::string>{"example-binaries.cc", "example-stubs.cc",
                                      "example-worker.cc", "example.h"}));
  EXPECT_EQ(testing::ReadFileOrEmpty(dir / "gen/example-worker.cc"),
            testing::ReadFileOrEmpty(kTestdata + "/example-worker.cc.golden"));
  r = testing::RunProcess({kGsstubgen, "--version"}, dir.path());
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, std::string("gsstubgen ") + GSRT_VERSION + "\n");
}

}  // namespace
}  // namespace gs
