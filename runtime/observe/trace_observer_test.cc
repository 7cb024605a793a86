#include "runtime/observe/trace_observer.h"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <csignal>
#include <fstream>
#include <iterator>
#include <string>

#include "tests/support/temp_dir.h"

namespace gs {
namespace {

JobRecord Job(TaskId task) {
  JobRecord j;
  j.task = task;
  j.operation = "scale";
  j.host = "node1";
  j.submitted = 1000;
  j.started = 1000;
  j.ended = 1001;
  return j;
}

// A trace that can no longer be written is a warning to the user, said
// once while the run goes; the run itself goes on.
TEST(TraceObserverTest, AFailedWriteIsAWarningSaidOnce) {
  TempDir dir;
  const std::string path = dir / "trace.json";
  RecordingMessages messages;
  auto trace = TraceObserver::Create(path, &messages);
  ASSERT_TRUE(trace.ok()) << trace.status().ToString();
  // Writes past 1 KiB fail (EFBIG) as on a full disk; limit restored below.
  rlimit old{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
  rlimit small = old;
  small.rlim_cur = 1024;
  std::signal(SIGXFSZ, SIG_IGN);
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  // Well over the 64 KiB that make it flush, twice.
  for (TaskId t = 0; t < 2000; ++t) (*trace)->OnJobEnded(Job(t));
  ::setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, SIG_DFL);

  ASSERT_EQ(messages.messages().size(), 1u) << messages.AllText();
  EXPECT_EQ(messages.messages()[0].kind, MessageKind::kWarning);
  EXPECT_EQ(messages.messages()[0].text.rfind("gsrt: warning: ", 0), 0u);
  EXPECT_TRUE(messages.Has(MessageKind::kWarning, path)) << messages.AllText();
}

// A task done by reusing an earlier run's results (docs/reuse.md) has no
// job: the trace marks it with an instant event; other task ends add none.
TEST(TraceObserverTest, AReusedTaskIsAnInstantEvent) {
  TempDir dir;
  const std::string path = dir / "trace.json";
  auto trace = TraceObserver::Create(path);
  ASSERT_TRUE(trace.ok()) << trace.status().ToString();
  (*trace)->OnRunStarted(1000, {"node1"});
  (*trace)->OnTaskEnded({7, "reused", 1000.5});
  (*trace)->OnTaskEnded({8, "done", 1000.6});
  ASSERT_TRUE((*trace)->Flush().ok());
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)),
                   std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("\"name\":\"reused\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"task\":7"), std::string::npos) << text;
  EXPECT_EQ(text.find("\"task\":8"), std::string::npos) << text;
}

}  // namespace
}  // namespace gs
