#include "runtime/base/messages.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace gs {
namespace {

TEST(MessagesTest, SayfFormatsAndRecordsTheKind) {
  RecordingMessages rec;
  Sayf(rec, MessageKind::kWarning, "gsrt: warning: host %s: %d jobs\n", "n1",
       3);
  ASSERT_EQ(rec.messages().size(), 1u);
  EXPECT_EQ(rec.messages()[0].kind, MessageKind::kWarning);
  EXPECT_EQ(rec.messages()[0].text, "gsrt: warning: host n1: 3 jobs\n");
  EXPECT_TRUE(rec.Has(MessageKind::kWarning, "3 jobs"));
  EXPECT_FALSE(rec.Has(MessageKind::kInfo, "3 jobs"));
}

TEST(MessagesTest, QuietKeepsWarningsAndErrorsOnly) {
  RecordingMessages rec;
  QuietMessages quiet(rec);
  quiet.Say(MessageKind::kInfo, "a\n");
  quiet.Say(MessageKind::kHostEvent, "b\n");
  quiet.Say(MessageKind::kSummary, "c\n");
  quiet.Say(MessageKind::kWarning, "d\n");
  quiet.Say(MessageKind::kError, "e\n");
  EXPECT_EQ(rec.AllText(), "d\ne\n");
}

TEST(MessagesTest, SayfHandlesLongTexts) {
  RecordingMessages rec;
  std::string long_part(5000, 'x');
  Sayf(rec, MessageKind::kInfo, "%s!\n", long_part.c_str());
  EXPECT_EQ(rec.AllText(), long_part + "!\n");
}

// What `write` put into a temporary file through a FileMessages.
template <typename Write>
std::string Written(bool terminal, Write write) {
  std::FILE* f = std::tmpfile();
  EXPECT_NE(f, nullptr);
  {
    FileMessages sink(f, terminal);
    write(sink);
  }
  std::rewind(f);
  std::string text;
  for (int c; (c = std::fgetc(f)) != EOF;) text += static_cast<char>(c);
  std::fclose(f);
  return text;
}

TEST(MessagesTest, OnATerminalAMessageFirstErasesTheProgressLine) {
  EXPECT_EQ(Written(true,
                    [](MessageSink& s) {
                      s.Progress("1/4 done");
                      s.Say(MessageKind::kWarning, "gsrt: warning: x\n");
                      s.Say(MessageKind::kInfo, "gsrt: y\n");  // none shown
                      s.Progress("2/4 done");
                      s.Progress("");
                      s.Progress("");  // nothing left to erase
                    }),
            "\r1/4 done\033[K\r\033[Kgsrt: warning: x\ngsrt: y\n"
            "\r2/4 done\033[K\r\033[K");
}

TEST(MessagesTest, ElsewhereProgressIsPlainLinesWithoutRepeats) {
  EXPECT_EQ(Written(false,
                    [](MessageSink& s) {
                      s.Progress("1/4 done");
                      s.Progress("1/4 done");
                      s.Say(MessageKind::kInfo, "gsrt: y\n");
                      s.Progress("2/4 done");
                      s.Progress("");
                    }),
            "1/4 done\ngsrt: y\n2/4 done\n");
}

TEST(MessagesTest, QuietDropsProgress) {
  RecordingMessages rec;
  QuietMessages quiet(rec);
  quiet.Progress("1/4 done");
  EXPECT_EQ(rec.progress(), "");
  EXPECT_EQ(rec.AllText(), "");
}

TEST(MessagesTest, RecordingKeepsTheLastProgressText) {
  RecordingMessages rec;
  EXPECT_EQ(rec.progress(), "");
  rec.Progress("1/4 done");
  rec.Progress("2/4 done");
  EXPECT_EQ(rec.progress(), "2/4 done");
  rec.Progress("");
  EXPECT_EQ(rec.progress(), "");
  EXPECT_TRUE(rec.messages().empty());  // progress is no message
}

}  // namespace
}  // namespace gs
