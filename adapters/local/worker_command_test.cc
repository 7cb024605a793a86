#include "adapters/local/worker_command.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

namespace gs {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using Kind = JobParam::Kind;

JobParam Param(Kind kind, std::string value = "", std::string source = "",
               std::string dest = "") {
  JobParam p;
  p.kind = kind;
  p.value = std::move(value);
  p.source = std::move(source);
  p.dest = std::move(dest);
  return p;
}

JobSpec Spec(std::vector<JobParam> params) {
  JobSpec spec;
  spec.id = 42;
  spec.operation = "multiply";
  spec.worker = "/opt/app/matmul-worker";
  spec.params = std::move(params);
  return spec;
}

TEST(WorkerCommandTest, NoParameters) {
  auto cmd = BuildWorkerCommand(Spec({}), "/w/jobs/42");
  ASSERT_TRUE(cmd.ok()) << cmd.status().ToString();
  EXPECT_THAT(cmd->argv, ElementsAre("/opt/app/matmul-worker", "run",
                                     "multiply", "/w/jobs/42/result"));
  EXPECT_EQ(cmd->result_path, "/w/jobs/42/result");
  EXPECT_TRUE(cmd->outputs.empty());
}

TEST(WorkerCommandTest, EveryKindInOrder) {
  auto cmd = BuildWorkerCommand(
      Spec({Param(Kind::kScalar, "7"), Param(Kind::kOutScalar),
            Param(Kind::kInOutScalar, "0x1.8p+1"),
            Param(Kind::kFileIn, "", "/data/a.0"),
            Param(Kind::kFileOut, "", "", "/data/b.1"),
            Param(Kind::kFileInOut, "", "/data/c.0", "/data/c.1")}),
      "/w/jobs/42");
  ASSERT_TRUE(cmd.ok()) << cmd.status().ToString();
  EXPECT_THAT(cmd->argv,
              ElementsAre("/opt/app/matmul-worker", "run", "multiply",
                          "/w/jobs/42/result", "7", "", "0x1.8p+1", "/data/a.0",
                          "/w/jobs/42/out.4", "/w/jobs/42/out.5"));
  ASSERT_EQ(cmd->outputs.size(), 2u);
  EXPECT_EQ(cmd->outputs[0].param_index, 4);
  EXPECT_EQ(cmd->outputs[0].temp, "/w/jobs/42/out.4");
  EXPECT_EQ(cmd->outputs[0].dest, "/data/b.1");
  EXPECT_EQ(cmd->outputs[0].source, "");
  EXPECT_EQ(cmd->outputs[1].param_index, 5);
  EXPECT_EQ(cmd->outputs[1].temp, "/w/jobs/42/out.5");
  EXPECT_EQ(cmd->outputs[1].dest, "/data/c.1");
  EXPECT_EQ(cmd->outputs[1].source, "/data/c.0");
}

TEST(WorkerCommandTest, ShellMetacharactersGoThroughUntouched) {
  const std::string nasty[] = {"two words",    "it's \"quoted\"",
                               "a; rm -rf /",  "$HOME `id` $(id)",
                               "line1\nline2", "",
                               "*?[a]",        "back\\slash",
                               "tab\there",    "-n"};
  std::vector<JobParam> params;
  for (const auto& s : nasty) params.push_back(Param(Kind::kScalar, s));
  auto cmd = BuildWorkerCommand(Spec(params), "/w/jobs/42");
  ASSERT_TRUE(cmd.ok()) << cmd.status().ToString();
  ASSERT_EQ(cmd->argv.size(), 4 + std::size(nasty));
  for (size_t i = 0; i < std::size(nasty); ++i) {
    EXPECT_EQ(cmd->argv[4 + i], nasty[i]) << "parameter " << i;
  }
}

TEST(WorkerCommandTest, FileNamesWithSpacesAndQuotes) {
  auto cmd = BuildWorkerCommand(
      Spec({Param(Kind::kFileIn, "", "/data/my file's \"in\".txt"),
            Param(Kind::kFileOut, "", "", "/data/out $x;.txt")}),
      "/w/jobs/42");
  ASSERT_TRUE(cmd.ok());
  EXPECT_EQ(cmd->argv[4], "/data/my file's \"in\".txt");
  EXPECT_EQ(cmd->argv[5], "/w/jobs/42/out.1");
  EXPECT_EQ(cmd->outputs[0].dest, "/data/out $x;.txt");
}

TEST(WorkerCommandTest, RejectsRelativeOrEmptyWorker) {
  JobSpec spec = Spec({});
  spec.worker = "bin/worker";
  auto cmd = BuildWorkerCommand(spec, "/w/jobs/42");
  ASSERT_FALSE(cmd.ok());
  EXPECT_EQ(cmd.status().code(), Status::Code::kInvalidArgument);
  EXPECT_THAT(cmd.status().message(), HasSubstr("bin/worker"));
  spec.worker = "";
  EXPECT_FALSE(BuildWorkerCommand(spec, "/w/jobs/42").ok());
}

TEST(WorkerCommandTest, RejectsEmptyOperationAndRelativeSandbox) {
  JobSpec spec = Spec({});
  spec.operation = "";
  EXPECT_FALSE(BuildWorkerCommand(spec, "/w/jobs/42").ok());
  EXPECT_FALSE(BuildWorkerCommand(Spec({}), "jobs/42").ok());
}

TEST(WorkerCommandTest, RejectsFileParametersWithoutPaths) {
  EXPECT_FALSE(
      BuildWorkerCommand(Spec({Param(Kind::kFileIn)}), "/w/jobs/42").ok());
  EXPECT_FALSE(
      BuildWorkerCommand(Spec({Param(Kind::kFileOut)}), "/w/jobs/42").ok());
  auto cmd = BuildWorkerCommand(
      Spec({Param(Kind::kFileInOut, "", "", "/data/c.1")}), "/w/jobs/42");
  ASSERT_FALSE(cmd.ok());
  EXPECT_THAT(cmd.status().message(), HasSubstr("parameter 0"));
}

TEST(WorkerCommandTest, RejectsNulBytes) {
  std::string with_nul("a\0b", 3);
  auto cmd =
      BuildWorkerCommand(Spec({Param(Kind::kScalar, with_nul)}), "/w/jobs/42");
  ASSERT_FALSE(cmd.ok());
  EXPECT_THAT(cmd.status().message(), HasSubstr("NUL"));
}

TEST(WorkerCommandTest, OutputTempPath) {
  EXPECT_EQ(OutputTempPath("/w/jobs/7", 3), "/w/jobs/7/out.3");
}

}  // namespace
}  // namespace gs
