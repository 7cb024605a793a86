#include "adapters/host_environment.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "runtime/base/process_spawn.h"

namespace gs {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// The wrapper run for real by /bin/sh, with `then` after it.
ProgramOutput Wrapped(const HostEnvironment& e, std::vector<std::string> then) {
  auto ran = RunProgram(InHostEnvironment("node1", e, std::move(then)), 30);
  EXPECT_TRUE(ran.ok()) << ran.status().ToString();
  return ran.ok() ? *ran : ProgramOutput{};
}

TEST(HostEnvironmentTest, AHostWithoutEnvironmentStartsTheProgramItself) {
  const std::vector<std::string> then = {"/bin/echo", "a b"};
  EXPECT_EQ(InHostEnvironment("node1", {}, then), then);
}

TEST(HostEnvironmentTest, VariablesReachTheProgramAsWritten) {
  HostEnvironment e;
  e.env = {{"GSRT_A", "x y'z $HOME `id`"}, {"GSRT_B", ""}};
  ProgramOutput out = Wrapped(e, {"/bin/sh", "-c",
                                  "printf '%s|%s' \"$GSRT_A\" "
                                  "\"${GSRT_B-unset}\""});
  EXPECT_EQ(out.exit_code, 0) << out.err;
  EXPECT_EQ(out.out, "x y'z $HOME `id`|");
}

TEST(HostEnvironmentTest, ArgumentsPassUntouchedByTheShell) {
  HostEnvironment e;
  e.setup = {"true"};
  const std::string odd = "$(touch /tmp/gsrt-never); `id` \"'\n*";
  ProgramOutput out = Wrapped(e, {"/usr/bin/printf", "%s", odd});
  EXPECT_EQ(out.exit_code, 0) << out.err;
  EXPECT_EQ(out.out, odd);
}

TEST(HostEnvironmentTest, SetupLinesLeaveTheirVariablesAndPrintToStderr) {
  HostEnvironment e;
  e.env = {{"GSRT_BASE", "/opt/site"}};
  e.setup = {"export GSRT_TOOL=\"$GSRT_BASE/tool\"", "echo loading tool",
             "GSRT_LOCAL=1; export GSRT_LOCAL"};
  ProgramOutput out =
      Wrapped(e, {"/bin/sh", "-c", "echo \"$GSRT_TOOL:$GSRT_LOCAL\""});
  EXPECT_EQ(out.exit_code, 0) << out.err;
  EXPECT_EQ(out.out, "/opt/site/tool:1\n");  // setup's echo kept off stdout
  EXPECT_THAT(out.err, HasSubstr("loading tool"));
}

TEST(HostEnvironmentTest, AFailingLineStopsTheSetupNamingHostAndLine) {
  HostEnvironment e;
  e.setup = {"true", "echo 'module: nosuch/9 not found' >&2; false",
             "echo never >&2"};
  ProgramOutput out = Wrapped(e, {"/bin/echo", "program ran"});
  EXPECT_EQ(out.exit_code, kSetupFailedExit);
  EXPECT_TRUE(IsSetupFailure(out.exit_code));
  EXPECT_EQ(out.out, "");
  EXPECT_THAT(out.err, HasSubstr("host 'node1': setup line 2 failed with "
                                 "exit status 1"));
  EXPECT_THAT(out.err, Not(HasSubstr("never")));
  const std::string said =
      DescribeSetupFailure("host 'node1'", out.exit_code, out.err);
  EXPECT_THAT(said, HasSubstr("host 'node1': its setup failed"));
  EXPECT_THAT(said, HasSubstr("module: nosuch/9 not found"));
}

TEST(HostEnvironmentTest, AMissingLauncherIsToldBeforeTheProgramStarts) {
  HostEnvironment e;
  e.launcher = {"gsrt-no-such-launcher", "--flag"};
  ProgramOutput out = Wrapped(e, {"/bin/echo", "program ran"});
  EXPECT_EQ(out.exit_code, kLauncherMissingExit);
  EXPECT_EQ(out.out, "");
  EXPECT_THAT(out.err, HasSubstr("host 'node1': the launcher "
                                 "'gsrt-no-such-launcher' is not installed"));
  EXPECT_THAT(DescribeSetupFailure("host 'node1'", out.exit_code, out.err),
              HasSubstr("its launcher cannot start"));
}

TEST(HostEnvironmentTest, AnInstalledLauncherLetsTheProgramRun) {
  HostEnvironment e;
  e.launcher = {"env"};
  ProgramOutput out = Wrapped(e, {"/bin/echo", "program ran"});
  EXPECT_EQ(out.exit_code, 0) << out.err;
  EXPECT_EQ(out.out, "program ran\n");
}

TEST(HostEnvironmentTest, TheProgramsOwnExitStatusComesThrough) {
  HostEnvironment e;
  e.setup = {"true"};
  ProgramOutput out = Wrapped(e, {"/bin/sh", "-c", "exit 7"});
  EXPECT_EQ(out.exit_code, 7);
  EXPECT_FALSE(IsSetupFailure(out.exit_code));
}

TEST(HostEnvironmentTest, TheDescriptionKeepsTheLastLinesOfALongOutput) {
  std::string err;
  for (int i = 1; i <= 20; ++i) err += "line " + std::to_string(i) + "\n\n";
  const std::string said =
      DescribeSetupFailure("host 'h'", kSetupFailedExit, err);
  EXPECT_THAT(said, HasSubstr("line 20"));
  EXPECT_THAT(said, HasSubstr("line 9\n"));
  EXPECT_THAT(said, Not(HasSubstr("line 8\n")));
  EXPECT_THAT(said, Not(HasSubstr("\n\n"))) << "blank lines are left out";
  EXPECT_THAT(DescribeSetupFailure("host 'h'", kSetupFailedExit, ""),
              HasSubstr("nothing on stderr"));
}

}  // namespace
}  // namespace gs
