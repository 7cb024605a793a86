#include "runtime/base/progress_line.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace gs {
namespace {

// What `write` put into a temporary file through a ProgressLine.
template <typename Write>
std::string Written(bool terminal, Write write) {
  std::FILE* f = std::tmpfile();
  EXPECT_NE(f, nullptr);
  ProgressLine line(f, terminal);
  write(line);
  std::rewind(f);
  std::string text;
  for (int c; (c = std::fgetc(f)) != EOF;) text += static_cast<char>(c);
  std::fclose(f);
  return text;
}

TEST(ProgressLineTest, OnATerminalTheLineIsRedrawnAndErased) {
  EXPECT_EQ(Written(true,
                    [](ProgressLine& l) {
                      l.Show("1/4 done");
                      l.Show("2/4 done");
                      EXPECT_TRUE(l.shown());
                      l.Clear();
                      EXPECT_FALSE(l.shown());
                      l.Clear();  // nothing left to erase
                    }),
            "\r1/4 done\033[K\r2/4 done\033[K\r\033[K");
}

TEST(ProgressLineTest, ElsewhereNoEscapeCodesAndNoRepeats) {
  EXPECT_EQ(Written(false,
                    [](ProgressLine& l) {
                      l.Show("1/4 done");
                      l.Show("1/4 done");
                      l.Show("2/4 done");
                      l.Clear();
                    }),
            "1/4 done\n2/4 done\n");
}

}  // namespace
}  // namespace gs
