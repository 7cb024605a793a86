#include "sim/experiments/sim_cli.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "runtime/sched/scheduler.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_files.h"

namespace gs {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

struct Parsed {
  std::optional<int> stop;
  SimCommand command;
  std::string out, err;
};

Parsed Parse(const std::vector<std::string>& args) {
  Parsed p;
  std::ostringstream out, err;
  p.stop = ParseSimArgs(args, &p.command, out, err);
  p.out = out.str();
  p.err = err.str();
  return p;
}

struct Ran {
  int code;
  std::string out, err;
};

Ran RunArgs(const std::vector<std::string>& args) {
  Parsed p = Parse(args);
  EXPECT_EQ(p.stop, std::nullopt) << p.err;
  std::ostringstream out, err;
  const int code = RunSimCommand(p.command, out, err);
  return {code, out.str(), err.str()};
}

TEST(SimArgsTest, BotOptionsAndTheCommonOnes) {
  Parsed p = Parse({"bot", "--hosts", "4", "--tasks", "50", "-p", "wqr-ft/3",
                    "-p", "mct", "--fail", "1@100", "--mtbf", "500", "--seed",
                    "7", "--reps", "2", "--json"});
  ASSERT_EQ(p.stop, std::nullopt) << p.err;
  const auto* bot = std::get_if<SimBotArgs>(&p.command.experiment);
  ASSERT_NE(bot, nullptr);
  EXPECT_EQ(bot->options.hosts, 4u);
  EXPECT_EQ(bot->options.tasks, 50u);
  EXPECT_EQ(bot->options.mtbf, 500);
  EXPECT_THAT(bot->policies, ElementsAre("wqr-ft/3", "mct"));
  EXPECT_THAT(bot->fails, ElementsAre("1@100"));
  EXPECT_EQ(p.command.seed, 7u);
  EXPECT_EQ(p.command.reps, 2);
  EXPECT_TRUE(p.command.json);
}

TEST(SimArgsTest, DagAndVolatile) {
  TempDir dir;
  WriteText(dir / "g.stg", "");
  Parsed dag = Parse(
      {"dag", dir / "g.stg", "--rewind", "all", "-n", "3", "--ccr", "1.5"});
  ASSERT_EQ(dag.stop, std::nullopt) << dag.err;
  const auto* d = std::get_if<SimDagArgs>(&dag.command.experiment);
  ASSERT_NE(d, nullptr);
  EXPECT_THAT(d->files, ElementsAre(dir / "g.stg"));
  EXPECT_EQ(d->rewind, "all");
  EXPECT_EQ(d->options.hosts, 3u);
  EXPECT_EQ(d->options.ccr, 1.5);
  EXPECT_FALSE(dag.command.json);

  Parsed vol = Parse({"volatile"});
  ASSERT_EQ(vol.stop, std::nullopt) << vol.err;
  const auto* v = std::get_if<SimVolatileArgs>(&vol.command.experiment);
  ASSERT_NE(v, nullptr);
  EXPECT_THAT(v->policies, ElementsAre("ip", "ie", "iy", "iay"));
  EXPECT_EQ(v->options.hosts, 20u);
  EXPECT_EQ(v->options.t_prog, 10);
  EXPECT_EQ(v->options.n_com, 5u);
  Parsed link =
      Parse({"volatile", "--t-prog", "0", "--t-data", "1.5", "--n-com", "0"});
  ASSERT_EQ(link.stop, std::nullopt) << link.err;
  v = std::get_if<SimVolatileArgs>(&link.command.experiment);
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->options.t_prog, 0);
  EXPECT_EQ(v->options.t_data, 1.5);
  EXPECT_EQ(v->options.n_com, 0u);
}

TEST(SimArgsTest, HelpOfEverySubcommand) {
  Parsed top = Parse({"--help"});
  EXPECT_EQ(top.stop, 0);
  for (const char* sub : {"etc", "dag", "bot", "volatile", "Exit codes"}) {
    EXPECT_THAT(top.out, HasSubstr(sub));
  }
  for (const char* sub : {"etc", "dag", "bot", "volatile"}) {
    Parsed help = Parse({sub, "--help"});
    EXPECT_EQ(help.stop, 0) << sub;
    EXPECT_THAT(help.out, HasSubstr("--seed")) << sub;
    EXPECT_THAT(help.out, HasSubstr("Exit codes")) << sub;
  }
}

// A name the engine accepts is one the help lists (issue 13: -p wqr worked
// with etc, whose help did not name it).
TEST(SimArgsTest, HelpListsEveryAcceptedPolicy) {
  for (const char* sub : {"etc", "dag", "bot"}) {
    Parsed help = Parse({sub, "--help"});
    for (const char* name : {"mct", "met", "min-min", "ftmct", "ftmet", "grank",
                             "wqr", "wqr-ft", "wqdr-ft", "iay"}) {
      ASSERT_TRUE(MakePolicy(name).ok()) << name;
      EXPECT_THAT(help.out, HasSubstr(std::string(name) + ",")) << sub;
    }
  }
}

TEST(SimArgsTest, AnUnknownSubcommandIsNamed) {
  Parsed p = Parse({"frobnicate"});
  EXPECT_EQ(p.stop, kSimBadInput);
  EXPECT_THAT(p.err, StartsWith("gsrt-sim: unknown subcommand 'frobnicate'; "
                                "the subcommands are etc, dag, bot, volatile"));
}

TEST(SimArgsTest, MistakesExitTwo) {
  TempDir dir;
  WriteText(dir / "g.stg", "");
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{
           {},
           {"nosuch"},
           {"etc", dir / "absent"},
           {"dag", dir / "g.stg", "--rewind", "sometimes"},
           {"bot", "--threshold", "0"},
           {"bot", "--reps", "0"}}) {
    Parsed p = Parse(args);
    EXPECT_EQ(p.stop, kSimBadInput) << (args.empty() ? "" : args[0]);
    EXPECT_THAT(p.err, StartsWith("gsrt-sim: "));
  }
  EXPECT_EQ(Parse({"bot", "--reps", "0"}).err,
            "gsrt-sim: --reps must be at least 1\n");
}

TEST(SimCommandTest, BotRunsToTheEnd) {
  Ran r = RunArgs({"bot", "--hosts", "2", "--tasks", "5", "--json"});
  EXPECT_EQ(r.code, kSimDone) << r.err;
  EXPECT_THAT(r.out, HasSubstr("\"tasks_done\":5.0"));
  EXPECT_THAT(r.out, HasSubstr("\"replica_wins\":"));
  EXPECT_EQ(r.err, "");
}

// wqr does not restart a task whose only instance was lost with its host.
TEST(SimCommandTest, AnUnfinishedTaskIsExitOne) {
  Ran r = RunArgs({"bot", "--hosts", "2", "--tasks", "4", "-p", "wqr", "--fail",
                   "0@50", "--json"});
  EXPECT_EQ(r.code, kSimIncomplete) << r.err;
  EXPECT_THAT(r.out, HasSubstr("\"tasks_failed\":1.0"));
}

TEST(SimCommandTest, OneRowPerPolicyLabel) {
  Ran r = RunArgs({"bot", "--hosts", "3", "--tasks", "6", "-p", "mct", "-p",
                   "wqr-ft/2", "--reps", "2"});
  EXPECT_EQ(r.code, kSimDone) << r.err;
  EXPECT_THAT(r.out, HasSubstr("mct"));
  EXPECT_THAT(r.out, HasSubstr("wqr-ft/2"));
}

TEST(SimCommandTest, BadValuesAreExitTwo) {
  Ran threshold =
      RunArgs({"bot", "--hosts", "2", "--tasks", "2", "-p", "wqr/0"});
  EXPECT_EQ(threshold.code, kSimBadInput);
  EXPECT_THAT(threshold.err, HasSubstr("threshold"));
  EXPECT_EQ(threshold.out, "");
  Ran fail = RunArgs({"bot", "--hosts", "2", "--tasks", "2", "--fail", "x"});
  EXPECT_EQ(fail.code, kSimBadInput);
  EXPECT_THAT(fail.err, HasSubstr("HOST@TIME"));
}

TEST(SimCommandTest, EtcInstanceAndVolatile) {
  TempDir dir;
  // Two tasks on two machines: 1 and 2 s for the first, 3 and 4 s for the
  // second.
  WriteText(dir / "tiny.etc", "2 2 0\n1\n2\n3\n4\n");
  Ran etc = RunArgs({"etc", dir / "tiny.etc", "--policy", "met", "--json"});
  EXPECT_EQ(etc.code, kSimDone) << etc.err;
  EXPECT_THAT(etc.out, HasSubstr("\"tasks_done\":2.0"));
  // MET puts both on machine 0: 1 + 3 s.
  EXPECT_THAT(etc.out, HasSubstr("\"makespan\":4.0"));
  Ran vol = RunArgs({"volatile", "--policy", "ie", "--hosts", "4", "--m", "2",
                     "--deadline", "2000"});
  EXPECT_EQ(vol.code, kSimDone) << vol.err;
  EXPECT_THAT(vol.out, HasSubstr("ie"));
  EXPECT_THAT(vol.out, HasSubstr("iterations"));
  EXPECT_THAT(vol.out, HasSubstr("data_sends"));
  // Fewer slots than tasks per iteration: bad input, told.
  Ran small = RunArgs({"volatile", "--hosts", "3", "--deadline", "200"});
  EXPECT_EQ(small.code, kSimBadInput);
  EXPECT_THAT(small.err, HasSubstr("--m 10"));
}

TEST(SimCommandTest, EtcBoundPrintsTheLpLowerBound) {
  TempDir dir;
  // Task 0 takes 1 or 2 s, task 1 3 or 4 s: task 1 alone needs 3 s, and 3
  // is reached (task 0 on machine 1), so the bound is the optimum.
  WriteText(dir / "tiny.etc", "2 2 0\n1\n2\n3\n4\n");
  Parsed bound = Parse({"etc-bound", dir / "tiny.etc"});
  EXPECT_EQ(bound.stop, kSimDone) << bound.err;
  EXPECT_EQ(bound.out, "3\n");
  WriteText(dir / "bad.etc", "2 2 0\n1\n2\n3\n");
  Parsed bad = Parse({"etc-bound", dir / "bad.etc"});
  EXPECT_EQ(bad.stop, kSimBadInput);
  EXPECT_THAT(bad.err, HasSubstr("bad.etc"));
}

}  // namespace
}  // namespace gs
