#include "runtime/history/check_pace.h"

#include <gtest/gtest.h>

#include <vector>

namespace gs {
namespace {

TEST(CheckPaceTest, EveryAnsweredAttemptCounts) {
  CheckPace pace;
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(pace.Counts(i * 0.1, true));
  EXPECT_EQ(pace.attempts(), 5);
  EXPECT_EQ(pace.not_answered(), 0);
}

// GS_Off's retries: 17 unanswered attempts 0.25 s apart are one outage.
TEST(CheckPaceTest, ABurstOfRetriesIsOneCheck) {
  CheckPace pace;
  for (int i = 0; i < 8; ++i) pace.Counts(i, true);
  int counted = 0;
  for (int i = 0; i < 17; ++i) counted += pace.Counts(100 + 0.25 * i, false);
  EXPECT_EQ(counted, 1);
  EXPECT_EQ(pace.attempts(), 9);
  EXPECT_EQ(pace.not_answered(), 1);
}

// A long outage tried all along counts once a kCheckPace, as a steady
// checker would see it.
TEST(CheckPaceTest, ALongOutageCountsOnceAPace) {
  CheckPace pace;
  for (Seconds t = 0; t < 10 * kCheckPace; t += 1) pace.Counts(t, false);
  EXPECT_EQ(pace.not_answered(), 10);
  EXPECT_EQ(pace.attempts(), 10);
}

// An answer ends the outage: the next unanswered attempt starts another.
TEST(CheckPaceTest, AnAnswerEndsTheOutage) {
  CheckPace pace;
  EXPECT_TRUE(pace.Counts(0, false));
  EXPECT_FALSE(pace.Counts(1, false));
  EXPECT_TRUE(pace.Counts(2, true));
  EXPECT_TRUE(pace.Counts(3, false));
  EXPECT_EQ(pace.attempts(), 3);
  EXPECT_EQ(pace.not_answered(), 2);
}

// Counting what was recorded (the attempts that counted) gives the same
// figures again: the rule is the same on writing and on reading.
TEST(CheckPaceTest, CountingTheCountedAttemptsAgainChangesNothing) {
  struct Attempt {
    Seconds time;
    bool answered;
  };
  std::vector<Attempt> attempts;
  for (int i = 0; i < 400; ++i) {
    // Up, then down for a while with fast retries, then up: three times.
    const bool answered = (i / 50) % 3 != 1;
    attempts.push_back({i * 7.0 + (i % 3) * 0.1, answered});
  }
  CheckPace writing;
  std::vector<Attempt> recorded;
  for (const Attempt& a : attempts) {
    if (writing.Counts(a.time, a.answered)) recorded.push_back(a);
  }
  CheckPace reading;
  for (const Attempt& a : recorded)
    EXPECT_TRUE(reading.Counts(a.time, a.answered));
  EXPECT_EQ(reading.attempts(), writing.attempts());
  EXPECT_EQ(reading.not_answered(), writing.not_answered());
  EXPECT_LT(writing.not_answered(), 150);  // fewer than the raw attempts
  EXPECT_GT(writing.not_answered(), 0);
}

}  // namespace
}  // namespace gs
