#include "runtime/engine/job_numbers.h"

#include <gtest/gtest.h>

#include "runtime/base/messages.h"
#include "tests/support/mem_file_system.h"

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

// JobNumbers: the I/O on WORK_DIR/last_job, on the in-memory file system.
class JobNumbersTest : public ::testing::Test {
 protected:
  JobNumbersTest() { fs_.Put("/w/keep", ""); }  // the work dir exists
  std::optional<std::string> LastJob() { return fs_.Contents("/w/last_job"); }

  testing::MemFileSystem fs_;
  RecordingMessages messages_;
  JobNumbers numbers_{fs_, messages_, "/w"};
};

TEST_F(JobNumbersTest, AFreshWorkDirReservesTheFirstBlock) {
  numbers_.Choose(0);
  EXPECT_EQ(numbers_.next(), 1u);
  EXPECT_EQ(numbers_.reserved(), kJobNumberBlock);
  EXPECT_EQ(LastJob(), FormatLastJob(kJobNumberBlock));
  EXPECT_EQ(numbers_.Next(), 1u);
  EXPECT_EQ(numbers_.Next(), 2u);
  EXPECT_TRUE(messages_.messages().empty()) << messages_.AllText();
}

TEST_F(JobNumbersTest, ContinuesAfterTheFileOrTheHistory) {
  fs_.Put("/w/last_job", "17\n");
  numbers_.Choose(0);
  EXPECT_EQ(numbers_.Next(), 18u);
  EXPECT_EQ(LastJob(), FormatLastJob(17 + kJobNumberBlock));

  JobNumbers after_history(fs_, messages_, "/w");
  after_history.Choose(5000);  // the history went further than the file
  EXPECT_EQ(after_history.Next(), 5001u);
  EXPECT_EQ(LastJob(), FormatLastJob(5000 + kJobNumberBlock));
}

TEST_F(JobNumbersTest, ReservesTheNextBlockOnlyWhenTheFirstRunsOut) {
  numbers_.Choose(0);
  for (JobId n = 1; n <= kJobNumberBlock; ++n) ASSERT_EQ(numbers_.Next(), n);
  EXPECT_EQ(LastJob(), FormatLastJob(kJobNumberBlock));
  EXPECT_EQ(numbers_.Next(), kJobNumberBlock + 1);
  EXPECT_EQ(numbers_.reserved(), 2 * kJobNumberBlock);
  EXPECT_EQ(LastJob(), FormatLastJob(2 * kJobNumberBlock));
  EXPECT_FALSE(fs_.Contents("/w/last_job.new"));  // renamed into place
}

TEST_F(JobNumbersTest, ACleanEndRecordsTheLastNumberUsed) {
  numbers_.Choose(0);
  numbers_.Next();
  numbers_.Next();
  numbers_.RecordLastUsed();
  EXPECT_EQ(LastJob(), FormatLastJob(2));
  JobNumbers next_run(fs_, messages_, "/w");
  next_run.Choose(0);
  EXPECT_EQ(next_run.Next(), 3u);
}

TEST_F(JobNumbersTest, WarnsAboutAFileWithoutANumber) {
  fs_.Put("/w/last_job", "garbage");
  numbers_.Choose(40);
  EXPECT_EQ(numbers_.Next(), 41u);
  ASSERT_EQ(messages_.messages().size(), 1u) << messages_.AllText();
  EXPECT_EQ(messages_.messages()[0].kind, MessageKind::kWarning);
  EXPECT_EQ(messages_.messages()[0].text,
            "gsrt: warning: /w/last_job does not hold a job number; "
            "numbering continues after the history's jobs (remove the file "
            "to silence this)\n");
}

TEST_F(JobNumbersTest, WarnsOnceWhenTheFileCannotBeWritten) {
  JobNumbers nowhere(fs_, messages_, "/missing");
  nowhere.Choose(0);
  for (JobId n = 1; n <= kJobNumberBlock + 1; ++n) ASSERT_EQ(nowhere.Next(), n);
  nowhere.RecordLastUsed();
  ASSERT_EQ(messages_.messages().size(), 1u) << messages_.AllText();
  EXPECT_TRUE(messages_.Has(MessageKind::kWarning,
                            "gsrt: warning: cannot record job numbers in "
                            "/missing/last_job ("));
  EXPECT_TRUE(messages_.Has(MessageKind::kWarning,
                            "a later run in this work dir may reuse this "
                            "run's job directories and logs\n"));
}

TEST(JobNumbersLargestInTest, NoHistoryIsZero) {
  EXPECT_EQ(JobNumbers::LargestIn(nullptr), 0u);
}

}  // namespace
}  // namespace gs
