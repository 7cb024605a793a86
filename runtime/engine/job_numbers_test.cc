#include "runtime/engine/job_numbers.h"

#include <gtest/gtest.h>

namespace gs {
namespace {

TEST(FirstJobNumberTest, AFreshWorkDirStartsAtOne) {
  EXPECT_EQ(FirstJobNumber({}), 1u);
}

TEST(FirstJobNumberTest, ContinuesAfterTheRecordedNumber) {
  EXPECT_EQ(FirstJobNumber({17, 0}), 18u);
}

TEST(FirstJobNumberTest, ContinuesAfterTheHistoryWithoutAFile) {
  EXPECT_EQ(FirstJobNumber({std::nullopt, 40}), 41u);
}

TEST(FirstJobNumberTest, TakesTheLargerOfFileAndHistory) {
  // A reserved block the history never saw used, and a history shared with
  // another work dir that went further.
  EXPECT_EQ(FirstJobNumber({1024, 12}), 1025u);
  EXPECT_EQ(FirstJobNumber({12, 3000}), 3001u);
}

TEST(FirstJobNumberTest, StaysWithinWhatJsonHoldsExactly) {
  EXPECT_EQ(FirstJobNumber({kMaxJobNumber, 0}), kMaxJobNumber);
  EXPECT_EQ(FirstJobNumber({std::nullopt, ~JobId{0}}), kMaxJobNumber);
}

TEST(ReservationForTest, KeepsAReservationThatCoversTheJob) {
  EXPECT_EQ(ReservationFor(5, 1024), 1024u);
  EXPECT_EQ(ReservationFor(1024, 1024), 1024u);
}

TEST(ReservationForTest, ReservesABlockFromTheJobOn) {
  EXPECT_EQ(ReservationFor(1, 0), kJobNumberBlock);
  EXPECT_EQ(ReservationFor(1025, 1024), 1024 + kJobNumberBlock);
  // After a clean end the file holds the last job used, not a block end.
  EXPECT_EQ(ReservationFor(38, 37), 37 + kJobNumberBlock);
}

TEST(ReservationForTest, NeverPastTheLargestNumber) {
  EXPECT_EQ(ReservationFor(kMaxJobNumber - 3, kMaxJobNumber - 4),
            kMaxJobNumber);
}

TEST(LastJobFileTest, RoundTrips) {
  for (JobId n : {JobId{0}, JobId{1}, JobId{4096}, kMaxJobNumber}) {
    EXPECT_EQ(ParseLastJob(FormatLastJob(n)), n) << n;
  }
  EXPECT_EQ(FormatLastJob(42), "42\n");
}

TEST(LastJobFileTest, AllowsBlanksAroundTheNumber) {
  EXPECT_EQ(ParseLastJob("  77 \r\n"), 77u);
}

TEST(LastJobFileTest, RefusesAnythingElse) {
  for (const char* text : {"", "\n", "-3", "+3", "12x", "x12", "1 2", "0x10",
                           "18446744073709551616", "9007199254740992"}) {
    EXPECT_EQ(ParseLastJob(text), std::nullopt) << text;
  }
}

}  // namespace
}  // namespace gs
