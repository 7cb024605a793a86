#include "runtime/base/shell_quote.h"

#include <gtest/gtest.h>
#include <stdio.h>
#include <sys/wait.h>

#include <array>
#include <string>
#include <vector>

namespace gs {
namespace {

TEST(ShellQuoteTest, PlainWordsStayAsTheyAre) {
  EXPECT_EQ(ShellQuote("gsrt-agent"), "gsrt-agent");
  EXPECT_EQ(ShellQuote("/usr/bin/x_1.2,a=b:c@d%e+f"),
            "/usr/bin/x_1.2,a=b:c@d%e+f");
}

TEST(ShellQuoteTest, SpecialWordsAreSingleQuoted) {
  EXPECT_EQ(ShellQuote(""), "''");
  EXPECT_EQ(ShellQuote("a b"), "'a b'");
  EXPECT_EQ(ShellQuote("it's"), "'it'\\''s'");
  EXPECT_EQ(ShellQuote("'"), "''\\'''");
  EXPECT_EQ(ShellQuote("$HOME;`id`"), "'$HOME;`id`'");
  EXPECT_EQ(ShellQuote("a\nb"), "'a\nb'");
  EXPECT_EQ(ShellQuote("~"), "'~'");
  EXPECT_EQ(ShellQuote("*"), "'*'");
}

TEST(ShellQuoteTest, CommandLineJoinsQuotedWords) {
  auto line = ShellCommandLine({"echo", "a b", "", "x"});
  ASSERT_TRUE(line.ok()) << line.status().ToString();
  EXPECT_EQ(*line, "echo 'a b' '' x");
}

TEST(ShellQuoteTest, RejectsEmptyArgvAndNul) {
  EXPECT_FALSE(ShellCommandLine({}).ok());
  auto nul = ShellCommandLine({"echo", std::string("a\0b", 3)});
  ASSERT_FALSE(nul.ok());
  EXPECT_EQ(nul.status().code(), Status::Code::kInvalidArgument);
  EXPECT_NE(nul.status().message().find("NUL"), std::string::npos);
}

// What a real POSIX shell makes of the quoted line: each word printed
// between brackets, so joins and splits would show.
std::string RunThroughSh(const std::vector<std::string>& words) {
  std::vector<std::string> argv = {"printf", "[%s]"};
  argv.insert(argv.end(), words.begin(), words.end());
  auto line = ShellCommandLine(argv);
  EXPECT_TRUE(line.ok());
  // The line goes to sh on stdin, as sshd hands it to the login shell.
  std::string cmd = "sh -c " + ShellQuote(*line);
  FILE* p = ::popen(cmd.c_str(), "r");
  EXPECT_NE(p, nullptr);
  std::string out;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0)
    out.append(buf.data(), n);
  EXPECT_EQ(::pclose(p), 0);
  return out;
}

TEST(ShellQuoteTest, RealShellSeesEachWordExactly) {
  const std::vector<std::string> words = {
      "a b",  "it's",        "\"double\"",   "semi;colon", "$HOME",
      "`id`", "$(id)",       "line1\nline2", "",           "*",
      "~",    "back\\slash", "tab\there",    "!bang",      "'",
      "''",   "&|<>(){}[]#", " lead",        "trail "};
  std::string expected;
  for (const auto& w : words) expected += "[" + w + "]";
  EXPECT_EQ(RunThroughSh(words), expected);
}

}  // namespace
}  // namespace gs
