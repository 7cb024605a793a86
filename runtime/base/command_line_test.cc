#include "runtime/base/command_line.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <sstream>

namespace gs {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

struct Parsed {
  std::optional<int> stop;
  std::string out, err;
  std::string first, second;
  int number = 7;
};

Parsed Parse(const std::vector<std::string>& args) {
  Parsed p;
  CLI::App app{"Tests the parse.", "prog"};
  app.set_version_flag("--version", "prog 1.2");
  app.add_option("FIRST", p.first)->required();
  app.add_option("SECOND", p.second);
  app.add_option("--number", p.number)->check(CLI::Range(1, 9));
  std::ostringstream out, err;
  p.stop = ParseCommandLine(app, args, out, err);
  p.out = out.str();
  p.err = err.str();
  return p;
}

TEST(CommandLineTest, ArgumentsKeepTheirOrder) {
  Parsed p = Parse({"a", "--number", "3", "b"});
  EXPECT_EQ(p.stop, std::nullopt) << p.err;
  EXPECT_EQ(p.first, "a");
  EXPECT_EQ(p.second, "b");
  EXPECT_EQ(p.number, 3);
  EXPECT_EQ(p.out + p.err, "");
}

TEST(CommandLineTest, HelpAndVersionGoToOutWithExitZero) {
  Parsed help = Parse({"--help"});
  EXPECT_EQ(help.stop, 0);
  EXPECT_THAT(help.out, HasSubstr("Tests the parse."));
  EXPECT_THAT(help.out, HasSubstr("--number"));
  EXPECT_EQ(help.err, "");
  Parsed version = Parse({"--version"});  // despite the required FIRST
  EXPECT_EQ(version.stop, 0);
  EXPECT_EQ(version.out, "prog 1.2\n");
}

TEST(CommandLineTest, MistakesNameTheProgramAndExitTwo) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{
           {}, {"a", "--number", "0"}, {"a", "--nope"}, {"a", "b", "c"}}) {
    Parsed p = Parse(args);
    EXPECT_EQ(p.stop, kBadCommandLine) << args.size();
    EXPECT_THAT(p.err, StartsWith("prog: "));
    EXPECT_THAT(p.err, HasSubstr("--help"));
    EXPECT_EQ(p.out, "");
  }
}

TEST(CommandLineTest, AnUnknownSubcommandIsNamedWithTheKnownOnes) {
  CLI::App app{"Has subcommands.", "prog"};
  app.add_subcommand("probe", "probes");
  app.add_subcommand("rank", "ranks");
  app.add_flag("--verbose");
  app.require_subcommand(1);
  std::ostringstream out, err;
  EXPECT_EQ(ParseCommandLine(app, {"frobnicate"}, out, err), 2);
  EXPECT_THAT(err.str(), StartsWith("prog: unknown subcommand 'frobnicate'; "
                                    "the subcommands are probe, rank\n"));
  std::ostringstream out2, err2;
  EXPECT_EQ(ParseCommandLine(app, {"--verbose", "rank"}, out2, err2),
            std::nullopt)
      << err2.str();
}

TEST(CommandLineTest, UsageComesFirstThenTheDescription) {
  CLI::App app{"Does things.", "prog"};
  SetUsage(app, "usage: prog FILE\n       prog --version\n");
  std::ostringstream out, err;
  EXPECT_EQ(ParseCommandLine(app, {"--help"}, out, err), 0);
  EXPECT_THAT(out.str(), StartsWith("usage: prog FILE\n       prog --version\n"
                                    "\nDoes things.\n"));
  EXPECT_THAT(out.str(), HasSubstr("--help"));
}

TEST(CommandLineTest, ArgsOfSkipsTheProgramName) {
  const char* argv[] = {"prog", "x", "--y"};
  EXPECT_EQ(ArgsOf(3, argv), (std::vector<std::string>{"x", "--y"}));
  EXPECT_TRUE(ArgsOf(1, argv).empty());
}

TEST(CommandLineTest, AddVersionFlagPrintsTheNameAndTheProjectVersion) {
  CLI::App app{"Tests --version.", "tool"};
  AddVersionFlag(app);
  app.require_subcommand(1);  // --version needs none
  app.add_subcommand("sub", "a subcommand");
  std::ostringstream out, err;
  EXPECT_EQ(ParseCommandLine(app, {"--version"}, out, err), 0);
  EXPECT_EQ(out.str(), std::string("tool ") + GSRT_VERSION + "\n");
  EXPECT_EQ(err.str(), "");
}

}  // namespace
}  // namespace gs
