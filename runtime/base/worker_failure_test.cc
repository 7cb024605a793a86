#include "runtime/base/worker_failure.h"

#include <gtest/gtest.h>

#include <string>

namespace gs {
namespace {

TEST(WorkerFailureTest, ThrownMessageRoundTrips) {
  auto decoded = DecodeThrown(EncodeThrown("negative size -3"));
  ASSERT_TRUE(decoded.has_value());
  EXPECT_EQ(*decoded, "negative size -3");
  EXPECT_EQ(ThrownError("simulate", *decoded),
            "simulate threw: negative size -3");
}

TEST(WorkerFailureTest, MessageIsOneLine) {
  auto decoded = DecodeThrown(EncodeThrown("first\nsecond\r\n\tthird\n"));
  ASSERT_TRUE(decoded.has_value());
  EXPECT_EQ(*decoded, "first second third");
}

TEST(WorkerFailureTest, LongMessageIsCutAtACharacterBoundary) {
  // 2-byte characters: an odd limit falls inside one.
  std::string what;
  for (int i = 0; i < 400; ++i) what += "\xC3\xA9";
  std::string line = OneLine(what, 11);
  EXPECT_EQ(line, "\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9...");
  auto decoded = DecodeThrown(EncodeThrown(what));
  ASSERT_TRUE(decoded.has_value());
  EXPECT_LE(decoded->size(), kMaxThrownMessageBytes + 3);
  EXPECT_EQ(decoded->substr(decoded->size() - 3), "...");
}

TEST(WorkerFailureTest, EmptyWhatIsSaidSo) {
  auto decoded = DecodeThrown(EncodeThrown(""));
  ASSERT_TRUE(decoded.has_value());
  EXPECT_EQ(*decoded, "(empty what())");
}

TEST(WorkerFailureTest, OtherFilesAreNotThrownMessages) {
  EXPECT_FALSE(DecodeThrown("").has_value());
  EXPECT_FALSE(DecodeThrown("42\n3.5\n").has_value());
  EXPECT_FALSE(DecodeThrown("#gsrt-threw 2\nlater format\n").has_value());
}

TEST(WorkerFailureTest, ForeignFileIsBoundedToo) {
  std::string file = "#gsrt-threw 1\n" + std::string(10000, 'x');
  auto decoded = DecodeThrown(file);
  ASSERT_TRUE(decoded.has_value());
  EXPECT_EQ(decoded->size(), kMaxThrownMessageBytes + 3);
}

}  // namespace
}  // namespace gs
