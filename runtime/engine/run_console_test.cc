#include "runtime/engine/run_console.h"

#include <gtest/gtest.h>

namespace gs {
namespace {

TEST(RunConsoleTest, QuietKeepsWarningsAndErrorsOfTheEngine) {
  RecordingMessages rec;
  RunConsole console(&rec, /*quiet=*/true);
  Sayf(console.messages(), MessageKind::kHostEvent, "gsrt: host %s is back\n",
       "n1");
  Sayf(console.messages(), MessageKind::kError, "gsrt: stuck\n");
  EXPECT_EQ(rec.AllText(), "gsrt: stuck\n");
  EXPECT_EQ(console.sink(), &rec) << "adapters get the sink unfiltered";
}

TEST(RunConsoleTest, NotQuietPassesEverything) {
  RecordingMessages rec;
  RunConsole console(&rec, /*quiet=*/false);
  Sayf(console.messages(), MessageKind::kSummary, "summary\n");
  Sayf(console.messages(), MessageKind::kInfo, "info\n");
  EXPECT_TRUE(rec.Has(MessageKind::kSummary, "summary"));
  EXPECT_TRUE(rec.Has(MessageKind::kInfo, "info"));
}

TEST(RunConsoleTest, NoSinkMeansStderr) {
  RunConsole console(nullptr, false);
  EXPECT_EQ(console.sink(), &StderrMessages());
}

}  // namespace
}  // namespace gs
