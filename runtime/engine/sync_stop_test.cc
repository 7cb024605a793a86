#include "runtime/engine/sync_stop.h"

#include <gtest/gtest.h>
#include <signal.h>

namespace gs {
namespace {

TEST(SyncStopTest, AFailedTaskSaysWhatFailedAndWhatToDo) {
  SyncStop s;
  s.task = 7;
  s.operation = "count";
  s.call = "count(words.txt)";
  s.error = "count threw: bad line 3";
  EXPECT_EQ(FormatSyncStop(s),
            "stopping the program: task 7 (count) failed (count threw: bad "
            "line 3), so the call count(words.txt) has no value to return "
            "and the code after it cannot run. The tasks already submitted "
            "finish and the summary below shows each failure with its error "
            "and logs; fix the cause and run the program again (README, "
            "\"When things fail\").");
}

TEST(SyncStopTest, ATaskNotRunNamesTheMissingFileAndTheFailureBehindIt) {
  SyncStop s;
  s.task = 9;
  s.operation = "measure";
  s.call = "measure(col0-2.txt)";
  s.not_run = true;
  s.missing_file = "col0-2.txt";
  s.cause_task = 2;
  s.cause_operation = "step";
  std::string text = FormatSyncStop(s);
  EXPECT_EQ(text.substr(0, text.find(", so")),
            "stopping the program: task 9 (measure) was not run: col0-2.txt "
            "was never written because task 2 (step) failed");
  EXPECT_NE(text.find("the call measure(col0-2.txt) has no value"),
            std::string::npos);
}

TEST(SyncStopTest, WithoutACauseItStillSaysWhatWasMissing) {
  SyncStop s;
  s.task = 1;
  s.operation = "sum";
  s.not_run = true;
  std::string text = FormatSyncStop(s);
  EXPECT_NE(text.find("task 1 (sum) was not run: a file it reads was never "
                      "written, so the call sum() has no value"),
            std::string::npos)
      << text;
}

TEST(SyncStopTest, ASignalIsNeverWordedAsAFailure) {
  std::string term = SignalStopMessage(SIGTERM, 3);
  EXPECT_EQ(term.substr(0, term.find(". ")),
            "stopping the program: interrupted by SIGTERM; no task failed");
  EXPECT_NE(term.find("Stopped 3 running jobs"), std::string::npos) << term;
  EXPECT_NE(SignalStopMessage(SIGINT, 0).find("interrupted by SIGINT (Ctrl-C)"),
            std::string::npos);
  EXPECT_EQ(term.find("failed ("), std::string::npos);
}

}  // namespace
}  // namespace gs
