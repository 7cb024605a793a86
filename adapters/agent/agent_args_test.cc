#include "adapters/agent/agent_args.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "adapters/local/local_adapter.h"

namespace gs {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

struct Parsed {
  std::optional<int> stop;
  AgentArgs args;
  std::string out, err;
};

Parsed Parse(const std::vector<std::string>& args) {
  Parsed p;
  std::ostringstream out, err;
  p.stop = ParseAgentArgs(args, &p.args, out, err);
  p.out = out.str();
  p.err = err.str();
  return p;
}

TEST(AgentArgsTest, SshModeWithDefaults) {
  Parsed p = Parse({"--workdir", "/w"});
  ASSERT_EQ(p.stop, std::nullopt) << p.err;
  EXPECT_EQ(p.args.work_dir, "/w");
  EXPECT_EQ(p.args.slots, LocalAdapterOptions::DefaultSlots());
  EXPECT_FALSE(p.args.slots_given);
  EXPECT_EQ(p.args.heartbeat, 0);
  EXPECT_EQ(p.args.connect, "");
  EXPECT_EQ(p.args.batch_job, "");
  EXPECT_EQ(p.args.workers, WorkerMode::kProcess);
}

TEST(AgentArgsTest, EveryOptionInBothSpellings) {
  Parsed p = Parse({"--workdir=/w", "--slots", "3", "--heartbeat=2.5",
                    "--connect", "m:4000", "--token-file=-", "--pilot", "p1",
                    "--workers", "persistent"});
  ASSERT_EQ(p.stop, std::nullopt) << p.err;
  EXPECT_EQ(p.args.slots, 3);
  EXPECT_TRUE(p.args.slots_given);
  EXPECT_EQ(p.args.heartbeat, 2.5);
  EXPECT_EQ(p.args.connect, "m:4000");
  EXPECT_EQ(p.args.token_file, "-");
  EXPECT_EQ(p.args.pilot, "p1");
  EXPECT_EQ(p.args.workers, WorkerMode::kPersistent);
  Parsed fork = Parse({"--workdir=/w", "--workers", "fork"});
  ASSERT_EQ(fork.stop, std::nullopt) << fork.err;
  EXPECT_EQ(fork.args.workers, WorkerMode::kFork);
  Parsed batch = Parse({"--batch-job", "/b", "--workdir", "/w"});
  ASSERT_EQ(batch.stop, std::nullopt) << batch.err;
  EXPECT_EQ(batch.args.batch_job, "/b");
}

// The host's launcher, a word at a time, words that start with '-' too,
// in the spelling the master writes (LauncherArgs).
TEST(AgentArgsTest, TheLauncherComesAWordAtATime) {
  const std::vector<std::string> launcher = {"apptainer", "exec", "--nv",
                                             "-B",        "/a b", "image.sif"};
  std::vector<std::string> args = {"--workdir", "/w"};
  for (const std::string& a : LauncherArgs(launcher)) args.push_back(a);
  args.insert(args.end(), {"--workers", "persistent"});
  Parsed p = Parse(args);
  ASSERT_EQ(p.stop, std::nullopt) << p.err;
  EXPECT_EQ(p.args.launcher, launcher);
  EXPECT_EQ(p.args.workers, WorkerMode::kPersistent);
  EXPECT_TRUE(Parse({"--workdir", "/w"}).args.launcher.empty());
}

TEST(AgentArgsTest, DetectingGpusIsAskedFor) {
  Parsed asked = Parse({"--workdir", "/w", "--detect-gpus"});
  ASSERT_EQ(asked.stop, std::nullopt) << asked.err;
  EXPECT_TRUE(asked.args.detect_gpus);
  EXPECT_FALSE(Parse({"--workdir", "/w"}).args.detect_gpus);
}

TEST(AgentArgsTest, VersionAndHelp) {
  Parsed version = Parse({"--version"});
  EXPECT_EQ(version.stop, 0);
  EXPECT_EQ(version.out, "gsrt-agent 0.1.0 protocol 2\n");
  Parsed help = Parse({"--help"});
  EXPECT_EQ(help.stop, 0);
  EXPECT_THAT(help.out, StartsWith("usage: gsrt-agent --workdir DIR"));
  for (const char* option :
       {"--slots", "--heartbeat", "--connect", "--token-file", "--pilot",
        "--batch-job", "--workers", "--launcher", "--detect-gpus"}) {
    EXPECT_THAT(help.out, HasSubstr(option));
  }
}

TEST(AgentArgsTest, MistakesAreExitTwo) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{
           {},
           {"--workdir"},
           {"--workdir", ""},
           {"--workdir", "/w", "--slots", "0"},
           {"--workdir", "/w", "--slots", "2x"},
           {"--workdir", "/w", "--heartbeat", "-1"},
           {"--workdir", "/w", "--heartbeat", "nan"},
           {"--workdir", "/w", "--connect", "m:1"},
           {"--workdir", "/w", "--connect", "m:1", "--pilot", "p"},
           {"--workdir", "/w", "extra"},
           {"--workdir", "/w", "--nope"},
           {"--workdir", "/w", "--workers", "threads"}}) {
    Parsed p = Parse(args);
    EXPECT_EQ(p.stop, kAgentUsage) << ::testing::PrintToString(args);
    EXPECT_THAT(p.err, StartsWith("gsrt-agent: "));
    EXPECT_EQ(p.out, "");
  }
}

}  // namespace
}  // namespace gs
