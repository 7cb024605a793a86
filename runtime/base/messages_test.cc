#include "runtime/base/messages.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace gs
