// The install check's script runs here under the local sh as a login
// shell would run it (`sh -c LINE`, LINE quoted by ShellCommandLine);
// tests/ssh_host_adapter_test.cc runs it through a real sshd.
#include "adapters/ssh/install_check.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "runtime/base/process_spawn.h"
#include "runtime/base/sha256.h"
#include "runtime/base/shell_quote.h"
#include "tests/support/temp_dir.h"

namespace gs {
namespace {

using ::testing::HasSubstr;

void WriteProgram(const std::string& path, const std::string& text,
                  int mode = 0755) {
  std::ofstream(path, std::ios::binary) << text;
  ::chmod(path.c_str(), mode);
}

std::string Sha256Of(const std::string& path) {
  Sha256 hash;
  EXPECT_TRUE(HashFile(path, &hash).ok()) << path;
  return hash.Hex();
}

int ModeOf(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 ? (st.st_mode & 07777) : -1;
}

ProgramOutput RunUnderShell(const std::vector<std::string>& argv) {
  auto line = ShellCommandLine(argv);
  EXPECT_TRUE(line.ok());
  auto run = RunProgram({"/bin/sh", "-c", *line}, 30);
  EXPECT_TRUE(run.ok()) << run.status().ToString();
  return run.ok() ? *run : ProgramOutput{};
}

// A fake agent: says how it was started; `--version` fails, so the check
// must not run it when it is the program exec'd.
constexpr const char* kAgent =
    "#!/bin/sh\n"
    "[ \"$1\" = --version ] && exit 1\n"
    "printf 'agent'; printf ' <%s>' \"$@\"; echo\n";
constexpr const char* kWorker = "#!/bin/sh\necho worker 1.0\n";

class InstallCheckTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Every shell metacharacter the paths may hold.
    bin_ = dir_ / "it's a $(touch pwned) `x` dir;*/bin";
    agent_local_ = dir_ / "agent";
    worker_local_ = dir_ / "worker";
    WriteProgram(agent_local_, kAgent);
    WriteProgram(worker_local_, kWorker);
  }

  std::vector<InstalledProgram> Programs() {
    return {{bin_ + "/gsrt-agent", Sha256Of(agent_local_)},
            {bin_ + "/worker", Sha256Of(worker_local_)}};
  }
  void InstallBoth() {
    std::filesystem::copy_file(agent_local_, bin_ + "/gsrt-agent");
    std::filesystem::copy_file(worker_local_, bin_ + "/worker");
  }
  std::vector<std::string> AgentArgv() {
    return {bin_ + "/gsrt-agent", "--workdir", "a b", "'$HOME'", ""};
  }

  TempDir dir_;
  std::string bin_, agent_local_, worker_local_;
};

TEST_F(InstallCheckTest, NothingInstalledMakesThePrivateDirectoryOnly) {
  const ProgramOutput run =
      RunUnderShell(InstallCheckArgv(bin_, Programs(), AgentArgv()));
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "gsrt-check: differ differ\n") << "the agent not started";
  EXPECT_EQ(ModeOf(bin_), 0700) << "made under its literal name";
}

TEST_F(InstallCheckTest, AllInPlaceExecsTheAgentWithItsArgumentsIntact) {
  std::filesystem::create_directories(bin_);
  InstallBoth();
  const ProgramOutput run =
      RunUnderShell(InstallCheckArgv(bin_, Programs(), AgentArgv()));
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out,
            "gsrt-check: same same\n"
            "agent <--workdir> <a b> <'$HOME'> <>\n");
}

TEST_F(InstallCheckTest, WithoutACommandEveryProgramMustStart) {
  std::filesystem::create_directories(bin_);
  InstallBoth();
  const ProgramOutput run = RunUnderShell(InstallCheckArgv(bin_, Programs()));
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "gsrt-check: differ same\n")
      << "the fake agent's --version fails";
}

TEST_F(InstallCheckTest, AProgramThatDiffersOrDoesNotStartStopsTheStart) {
  std::filesystem::create_directories(bin_);
  InstallBoth();
  WriteProgram(bin_ + "/worker", "#!/bin/sh\nexit 1\n");  // does not start
  std::vector<InstalledProgram> programs = Programs();
  programs[1].sha256 = Sha256Of(bin_ + "/worker");
  EXPECT_EQ(RunUnderShell(InstallCheckArgv(bin_, programs, AgentArgv())).out,
            "gsrt-check: differ differ\n")
      << "the agent is not started, so its --version decides, and fails";
  WriteProgram(agent_local_, kWorker);  // an agent that answers --version
  WriteProgram(bin_ + "/gsrt-agent", kWorker);
  programs[0].sha256 = Sha256Of(agent_local_);
  EXPECT_EQ(RunUnderShell(InstallCheckArgv(bin_, programs, AgentArgv())).out,
            "gsrt-check: same differ\n");
  programs[0].sha256 = std::string(64, '0');  // another digest
  EXPECT_EQ(RunUnderShell(InstallCheckArgv(bin_, programs, AgentArgv())).out,
            "gsrt-check: differ differ\n");
}

TEST_F(InstallCheckTest, ARightCopyThatIsNotExecutableIsMadeSo) {
  std::filesystem::create_directories(bin_);
  InstallBoth();
  ::chmod((bin_ + "/worker").c_str(), 0600);
  const ProgramOutput run =
      RunUnderShell(InstallCheckArgv(bin_, Programs(), AgentArgv()));
  EXPECT_THAT(run.out, HasSubstr("gsrt-check: same same\nagent"));
  EXPECT_EQ(ModeOf(bin_ + "/worker"), 0755);
}

TEST_F(InstallCheckTest, ADirectoryThatCannotBeMadeConfirmsNothing) {
  std::filesystem::create_directories(
      std::filesystem::path(bin_).parent_path());
  WriteProgram(bin_, "a file where the directory should be");
  const ProgramOutput run =
      RunUnderShell(InstallCheckArgv(bin_, Programs(), AgentArgv()));
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "gsrt-check: differ differ\n");
}

TEST(InstallCheckLineTest, ParsesOnlyTheCheckLineForThatManyPrograms) {
  EXPECT_EQ(ParseInstallCheckLine("gsrt-check: same differ", 2),
            (std::vector<bool>{true, false}));
  EXPECT_EQ(ParseInstallCheckLine("gsrt-check:", 0), std::vector<bool>{});
  EXPECT_EQ(ParseInstallCheckLine("gsrt-check: same", 2), std::nullopt);
  EXPECT_EQ(ParseInstallCheckLine("gsrt-check: same same same", 2),
            std::nullopt);
  EXPECT_EQ(ParseInstallCheckLine("gsrt-check:  same", 1), std::nullopt);
  EXPECT_EQ(ParseInstallCheckLine("gsrt-check: same ", 1), std::nullopt);
  EXPECT_EQ(ParseInstallCheckLine("gsrt-check: yes", 1), std::nullopt);
  EXPECT_EQ(ParseInstallCheckLine("Welcome to node1", 1), std::nullopt);
  EXPECT_EQ(ParseInstallCheckLine("", 1), std::nullopt);
}

TEST(InstallCheckLineTest, TheLimitFitsTheLongestLine) {
  EXPECT_EQ(InstallCheckLineLimit(2),
            std::string("gsrt-check: differ differ\n").size());
}

TEST(ConfirmedAfterFailedStartTest, NoLineConfirmsNothing) {
  CheckedStartOutcome outcome;
  outcome.ended_silent = true;
  EXPECT_EQ(ConfirmedAfterFailedStart(outcome, 2),
            (std::vector<bool>{false, false}));
}

TEST(ConfirmedAfterFailedStartTest, ProgramsThatDifferAreInstalled) {
  CheckedStartOutcome outcome;
  outcome.same = {true, false};
  EXPECT_EQ(ConfirmedAfterFailedStart(outcome, 2),
            (std::vector<bool>{true, false}));
}

TEST(ConfirmedAfterFailedStartTest, AnAgentThatEndedSilentIsCheckedAgain) {
  CheckedStartOutcome outcome;
  outcome.same = {true, true};
  outcome.ended_silent = true;
  EXPECT_EQ(ConfirmedAfterFailedStart(outcome, 2),
            (std::vector<bool>{false, true}));
}

TEST(ConfirmedAfterFailedStartTest, AnAgentThatSpokeOrHangsKeepsItsError) {
  CheckedStartOutcome spoke;
  spoke.same = {true, true};
  spoke.agent_spoke = true;
  EXPECT_EQ(ConfirmedAfterFailedStart(spoke, 2), std::nullopt);
  CheckedStartOutcome hangs;  // still running when the handshake timed out
  hangs.same = {true, true};
  EXPECT_EQ(ConfirmedAfterFailedStart(hangs, 2), std::nullopt);
}

}  // namespace
}  // namespace gs
