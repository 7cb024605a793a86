#include "runtime/deploy/deploy_cli.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <sstream>

#include "tests/support/temp_dir.h"
#include "tests/support/test_files.h"

namespace gs {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

struct Parsed {
  std::optional<int> stop;
  DeployCommand command;
  std::string out, err;
};

Parsed Parse(const std::vector<std::string>& args) {
  Parsed p;
  std::ostringstream out, err;
  p.stop = ParseDeployArgs(args, &p.command, out, err);
  p.out = out.str();
  p.err = err.str();
  return p;
}

TEST(DeployArgsTest, ProbeDefaultsAndHost) {
  Parsed p = Parse({"probe", "--host", "b"});
  ASSERT_EQ(p.stop, std::nullopt) << p.err;
  const auto* probe = std::get_if<DeployProbeArgs>(&p.command);
  ASSERT_NE(probe, nullptr);
  EXPECT_EQ(probe->common.host, "b");
  EXPECT_EQ(probe->common.config, "");
  EXPECT_EQ(probe->timeout, 30);
  EXPECT_EQ(probe->transfer, "4M");
  EXPECT_EQ(probe->parallel, 8);
}

TEST(DeployArgsTest, RankWeightsAreSetOnlyWhenGiven) {
  Parsed p = Parse({"rank", "--config", "c.yaml", "--op", "mul", "--alpha",
                    "0.25", "--mem", "2G", "--distrust-first", "--json"});
  ASSERT_EQ(p.stop, std::nullopt) << p.err;
  const auto* rank = std::get_if<DeployRankArgs>(&p.command);
  ASSERT_NE(rank, nullptr);
  EXPECT_EQ(rank->common.config, "c.yaml");
  EXPECT_EQ(rank->op, "mul");
  EXPECT_EQ(rank->alpha, 0.25);
  EXPECT_EQ(rank->beta, std::nullopt);
  EXPECT_EQ(rank->mem, "2G");
  EXPECT_TRUE(rank->distrust_first);
  EXPECT_TRUE(rank->json);
}

TEST(DeployArgsTest, HistoryAndSetup) {
  Parsed h = Parse({"history", "--since", "2h", "--limit", "5"});
  ASSERT_EQ(h.stop, std::nullopt) << h.err;
  const auto* history = std::get_if<DeployHistoryArgs>(&h.command);
  ASSERT_NE(history, nullptr);
  EXPECT_EQ(history->since, "2h");
  EXPECT_EQ(history->limit, 5u);
  Parsed s = Parse({"setup", "./app", "--timeout", "5"});
  ASSERT_EQ(s.stop, std::nullopt) << s.err;
  const auto* setup = std::get_if<DeploySetupArgs>(&s.command);
  ASSERT_NE(setup, nullptr);
  EXPECT_EQ(setup->app, "./app");
  EXPECT_EQ(setup->timeout, 5);
}

TEST(DeployArgsTest, HelpAndMistakes) {
  Parsed help = Parse({"rank", "--help"});
  EXPECT_EQ(help.stop, 0);
  for (const char* opt :
       {"--config", "--op", "--mem", "--gamma", "--json", "Exit codes"}) {
    EXPECT_THAT(help.out, HasSubstr(opt));
  }
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{},
                                             {"nosuch"},
                                             {"rank", "--alpha", "x"},
                                             {"rank", "--host", "a"},
                                             {"setup"},
                                             {"probe", "--timeout", "0"}}) {
    Parsed p = Parse(args);
    EXPECT_EQ(p.stop, kDeployUsage) << (args.empty() ? "" : args[0]);
    EXPECT_THAT(p.err, StartsWith("gsdeploy: "));
  }
}

// The commands on two local hosts, in a directory of their own.
class DeployCommandTest : public ::testing::Test {
 protected:
  DeployCommandTest() {
    env_.cwd = dir_.path();
    env_.home = dir_ / "home";
    env_.user = "tester";
    env_.cores = 1;
    WriteText(dir_ / "gsrt.yaml",
              "hosts:\n"
              "  - name: a\n    adapter: local\n    slots: 1\n"
              "  - name: b\n    adapter: local\n    slots: 1\n");
  }

  struct Ran {
    int code;
    std::string out, err;
  };
  Ran RunArgs(std::vector<std::string> args) {
    args.insert(args.begin() + 1, {"--config", dir_ / "gsrt.yaml"});
    DeployCommand command;
    std::ostringstream out, err;
    std::optional<int> stop = ParseDeployArgs(args, &command, out, err);
    EXPECT_EQ(stop, std::nullopt) << err.str();
    if (stop) return {*stop, out.str(), err.str()};
    const int code = RunDeployCommand(command, env_, out, err);
    return {code, out.str(), err.str()};
  }

  TempDir dir_;
  ConfigEnv env_;
};

TEST_F(DeployCommandTest, ReportsBeforeAnyHistoryCreateNothing) {
  Ran rank = RunArgs({"rank"});
  EXPECT_EQ(rank.code, kDeployOk) << rank.err;
  EXPECT_THAT(rank.out, HasSubstr("no history at " + (dir_ / ".gsrt")));
  Ran history = RunArgs({"history"});
  EXPECT_EQ(history.code, kDeployOk) << history.err;
  EXPECT_THAT(history.out, StartsWith("No history at "));
  EXPECT_FALSE(Exists(dir_ / ".gsrt/history.db"));
}

TEST_F(DeployCommandTest, ProbeRecordsWhatHistoryAndRankShow) {
  Ran probe = RunArgs({"probe"});
  ASSERT_EQ(probe.code, kDeployOk) << probe.err;
  EXPECT_THAT(probe.out, HasSubstr("2 hosts: 2 answered, 0 did not answer"));
  EXPECT_THAT(probe.out, HasSubstr("Recorded in " + (dir_ / ".gsrt")));
  Ran history = RunArgs({"history", "--host", "b", "--since", "1h"});
  EXPECT_EQ(history.code, kDeployOk) << history.err;
  EXPECT_THAT(history.out, HasSubstr("probe: answered"));
  Ran json = RunArgs({"rank", "--json"});
  EXPECT_EQ(json.code, kDeployOk) << json.err;
  EXPECT_THAT(json.out, HasSubstr("\"schema\": \"gsdeploy-rank/1\""));
}

TEST_F(DeployCommandTest, MalformedValuesAndUnknownHostsAreExitTwo) {
  Ran mem = RunArgs({"rank", "--mem", "lots"});
  EXPECT_EQ(mem.code, kDeployUsage);
  EXPECT_EQ(mem.err,
            "gsdeploy: --mem: cannot read 'lots' as a size (e.g. 2G, 512M, "
            "1048576)\n");
  Ran since = RunArgs({"history", "--since", "yesterday"});
  EXPECT_EQ(since.code, kDeployUsage);
  EXPECT_THAT(since.err, HasSubstr("2h"));
  Ran host = RunArgs({"probe", "--host", "nosuch"});
  EXPECT_EQ(host.code, kDeployUsage);
  EXPECT_THAT(host.err, HasSubstr("the configured hosts are: a, b"));
  EXPECT_FALSE(Exists(dir_ / ".gsrt/history.db"));
}

TEST_F(DeployCommandTest, SetupIsReadyOnlyWhereTheWorkerStarts) {
  WriteText(dir_ / "app-worker", "#!/bin/sh\necho \"gsrt-worker app 0.1\"\n");
  ::chmod((dir_ / "app-worker").c_str(), 0755);
  Ran ready = RunArgs({"setup", "./app"});
  EXPECT_EQ(ready.code, kDeployOk) << ready.err;
  EXPECT_THAT(ready.out, HasSubstr("gsrt-worker app 0.1"));
  EXPECT_THAT(ready.out, HasSubstr("2 of 2 hosts ready"));
  Ran missing = RunArgs({"setup", "./nosuch"});
  EXPECT_EQ(missing.code, kDeployNotReady);
  EXPECT_THAT(missing.out, HasSubstr("MISSING"));
}

// Issue 36: a Slurm host is set up (its nodes run the master's worker and
// agent, checked in place) instead of UNREACHABLE with exit 1; a host
// setup cannot serve is exit 2, with the host and what to do.
TEST_F(DeployCommandTest, SetupChecksBatchHostsAndRefusesWhatItCannot) {
  WriteText(dir_ / "app-worker", "#!/bin/sh\necho \"gsrt-worker app 0.1\"\n");
  ::chmod((dir_ / "app-worker").c_str(), 0755);
  WriteText(dir_ / "agent", "#!/bin/sh\necho \"gsrt-agent 0.1\"\n");
  ::chmod((dir_ / "agent").c_str(), 0755);
  ::setenv("GSRT_AGENT", (dir_ / "agent").c_str(), 1);
  WriteText(dir_ / "gsrt.yaml",
            "hosts:\n"
            "  - {name: cluster, adapter: slurm, mode: pilot}\n"
            "  - {name: jobs, adapter: pbs, mode: job}\n"
            "  - {name: s, adapter: sim}\n");
  Ran ready = RunArgs({"setup", "--host", "cluster", "./app"});
  ::unsetenv("GSRT_AGENT");
  EXPECT_EQ(ready.code, kDeployOk) << ready.out << ready.err;
  EXPECT_THAT(ready.out, HasSubstr("gsrt-agent 0.1"));
  EXPECT_THAT(ready.out, HasSubstr("1 of 1 hosts ready"));
  Ran jobs = RunArgs({"setup", "--host", "jobs", "./app"});
  EXPECT_EQ(jobs.code, kDeployUsage) << jobs.out << jobs.err;
  EXPECT_THAT(jobs.out, HasSubstr("NOT SUPPORTED"));
  EXPECT_THAT(jobs.out, HasSubstr("not supported for pbs hosts"));
  EXPECT_THAT(jobs.out, HasSubstr("gsrt.yaml:3:5: host 'jobs'"));
  Ran sim = RunArgs({"setup", "./app"});
  EXPECT_EQ(sim.code, kDeployUsage) << sim.out << sim.err;
  EXPECT_THAT(sim.out, HasSubstr("not supported for sim hosts: host 's'"));
  EXPECT_THAT(sim.out, Not(HasSubstr("UNREACHABLE")));
}

TEST_F(DeployCommandTest, UnusableHistoryIsExitThreeAndLeftAlone) {
  std::filesystem::create_directories(dir_ / ".gsrt");
  const std::string junk(4096, 'x');
  WriteText(dir_ / ".gsrt/history.db", junk);
  for (const char* command : {"rank", "history", "probe"}) {
    Ran r = RunArgs({command});
    EXPECT_EQ(r.code, kDeployHistory) << command << ": " << r.err;
    EXPECT_THAT(r.err, StartsWith("gsdeploy: ")) << command;
    EXPECT_EQ(ReadText(dir_ / ".gsrt/history.db"), junk) << command;
  }
}

}  // namespace
}  // namespace gs
