// `gsrt testbed`: where it finds testbed.sh (installed beside the program,
// or the source tree's for a program in the build tree) and the command
// lines it refuses before running anything. tests/ssh_testbed_test.sh runs
// it for real.
#include "runtime/inspect/testbed_cli.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "runtime/inspect/inspect_cli.h"

namespace gs {
namespace {

namespace fs = std::filesystem;

class TestbedCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("gsrt-testbed-cli-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "bin");
  }
  void TearDown() override { fs::remove_all(dir_); }

  int Run(std::vector<std::string> args) {
    out_.str("");
    err_.str("");
    return RunGsrtCommand(args, ConfigEnv{}, out_, err_);
  }

  fs::path dir_;
  std::ostringstream out_, err_;
};

TEST_F(TestbedCliTest, FindsTheInstalledScriptBesideTheProgram) {
  const fs::path scripts = dir_ / "bin" / GSRT_TESTBED_RELATIVE;
  fs::create_directories(scripts);
  std::ofstream(scripts / "testbed.sh") << "#!/bin/bash\n";
  EXPECT_EQ(FindTestbedScript((dir_ / "bin" / "gsrt").string()),
            (scripts / "testbed.sh").lexically_normal().string());
}

TEST_F(TestbedCliTest, FindsNothingForAProgramOutsideTheBuildTree) {
  EXPECT_EQ(FindTestbedScript((dir_ / "bin" / "gsrt").string()), "");
}

TEST_F(TestbedCliTest, UsesTheSourceTreesScriptFromTheBuildTree) {
  const fs::path build_gsrt = fs::path(GSRT_BUILD_DIR) / "tools" / "gsrt";
  EXPECT_EQ(FindTestbedScript(build_gsrt.string()),
            (fs::path(GSRT_TESTBED_SOURCE_DIR) / "testbed.sh").string());
}

TEST_F(TestbedCliTest, RefusesBadCommandLinesBeforeRunningAnything) {
  EXPECT_EQ(Run({"testbed"}), 2);
  EXPECT_NE(err_.str().find("A subcommand is required"), std::string::npos)
      << err_.str();
  EXPECT_EQ(Run({"testbed", "start", "--ssh", "251"}), 2);
  EXPECT_NE(err_.str().find("--ssh"), std::string::npos) << err_.str();
  EXPECT_EQ(Run({"testbed", "stop", "--ssh", "2"}), 2);
}

TEST_F(TestbedCliTest, HelpNamesEverySubcommandAndOption) {
  EXPECT_EQ(Run({"--help"}), 0);
  EXPECT_NE(out_.str().find("testbed"), std::string::npos);
  EXPECT_EQ(Run({"testbed", "--help"}), 0);
  for (const char* word : {"start", "stop", "status", "Exit codes"}) {
    EXPECT_NE(out_.str().find(word), std::string::npos) << word;
  }
  EXPECT_EQ(Run({"testbed", "start", "--help"}), 0);
  for (const char* word : {"--ssh N", "--slurm", "--dir DIR", "needs root"}) {
    EXPECT_NE(out_.str().find(word), std::string::npos) << word;
  }
}

}  // namespace
}  // namespace gs
