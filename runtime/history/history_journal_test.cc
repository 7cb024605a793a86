// The task journal in the history: entries round-trip, and a new run finds
// the interrupted runs it may resume.
#include <gtest/gtest.h>

#include "runtime/history/history.h"
#include "runtime/history/history_test_util.h"

namespace gs {
namespace {

class HistoryJournalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.ok());
    HistoryOptions options;
    options.batch_size = 64;  // as the engine: entries go in batches
    auto h = History::Open(dir_.File("history.db"), options);
    ASSERT_TRUE(h.ok()) << h.status().message();
    history_ = std::move(h).value();
  }
  RunId Begin(std::string_view program = "/bin/app",
              std::string_view cwd = "/w") {
    auto run = history_->BeginRun(program, cwd, 1, ++now_);
    EXPECT_TRUE(run.ok());
    return *run;
  }

  testing::TempDir dir_;
  std::unique_ptr<History> history_;
  Seconds now_ = 1000;
};

TEST_F(HistoryJournalTest, EntriesRoundTrip) {
  RunId run = Begin();
  JournalEntry e;
  e.run = run;
  e.task = 4;
  e.signature = "0123456789abcdef0123456789abcdef";
  e.operation = "multiply";
  e.host = "node1";
  e.finished = 1234.5;
  e.results = "0x1p+0\n";
  JournalOutput o;
  o.param = 1;
  o.file = "7-c.txt";
  o.host = "node1";
  o.size = 99;
  e.outputs.push_back(o);
  ASSERT_TRUE(history_->RecordTaskJournal(e).ok());
  // A task rewound after a host loss finishes again: one entry remains.
  e.host = "node2";
  ASSERT_TRUE(history_->RecordTaskJournal(e).ok());
  ASSERT_TRUE(history_->Flush().ok());
  auto entries = history_->LoadJournal(run);
  ASSERT_TRUE(entries.ok()) << entries.status().message();
  ASSERT_EQ(entries->size(), 1u);
  const JournalEntry& got = (*entries)[0];
  EXPECT_EQ(got.run, run);
  EXPECT_EQ(got.task, 4u);
  EXPECT_EQ(got.signature, e.signature);
  EXPECT_EQ(got.operation, "multiply");
  EXPECT_EQ(got.host, "node2");
  EXPECT_DOUBLE_EQ(got.finished, 1234.5);
  EXPECT_EQ(got.results, "0x1p+0\n");
  ASSERT_EQ(got.outputs.size(), 1u);
  EXPECT_EQ(got.outputs[0].file, "7-c.txt");
  EXPECT_EQ(got.outputs[0].size, 99);
}

TEST_F(HistoryJournalTest, InterruptedRunsBackToTheLastOneThatEnded) {
  RunId ended = Begin();
  ASSERT_TRUE(history_->EndRun(ended, RunStatus::kOk, ++now_).ok());
  RunId killed = Begin();                     // still "running": SIGKILLed
  RunId other = Begin("/bin/other");          // another program
  RunId elsewhere = Begin("/bin/app", "/x");  // another directory
  RunId interrupted = Begin();
  ASSERT_TRUE(
      history_->EndRun(interrupted, RunStatus::kCancelled, ++now_).ok());
  RunId current = Begin();
  auto runs = history_->FindInterruptedRuns("/bin/app", "/w", current);
  ASSERT_TRUE(runs.ok());
  EXPECT_EQ(*runs, (std::vector<RunId>{interrupted, killed}));
  (void)other;
  (void)elsewhere;
  // A run that failed (GS_Off ran, the data is gone) ends the chain.
  ASSERT_TRUE(history_->EndRun(current, RunStatus::kFailed, ++now_).ok());
  runs = history_->FindInterruptedRuns("/bin/app", "/w", Begin());
  ASSERT_TRUE(runs.ok());
  EXPECT_TRUE(runs->empty());
}

}  // namespace
}  // namespace gs
