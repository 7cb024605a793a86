#include "runtime/observe/summary_observer.h"

#include <gtest/gtest.h>

namespace gs {
namespace {

JobRecord Job(TaskId task, const char* op, const char* host, Seconds start,
              Seconds end) {
  JobRecord j;
  j.task = task;
  j.operation = op;
  j.host = host;
  // Times are seconds since the epoch; 0 would mean "unknown".
  j.submitted = 1000 + start;
  j.started = 1000 + start;
  j.ended = 1000 + end;
  j.exit_code = 0;
  return j;
}

TEST(SummaryObserverTest, CriticalPathFollowsTheLongestChain) {
  SummaryObserver s(nullptr);
  // 0 (2 s) -> 2 (1 s); 1 (4 s) -> 3 (0.5 s): the path is 1, 3.
  s.OnTaskSubmitted({0, "a", {}, 0});
  s.OnTaskSubmitted({1, "b", {}, 0});
  s.OnTaskSubmitted({2, "a", {0}, 0});
  s.OnTaskSubmitted({3, "c", {1}, 0});
  s.OnJobEnded(Job(0, "a", "h1", 0, 2));
  s.OnJobEnded(Job(1, "b", "h2", 0, 4));
  s.OnJobEnded(Job(2, "a", "h1", 2, 3));
  s.OnJobEnded(Job(3, "c", "h2", 4, 4.5));
  RunReport r = s.Report();
  EXPECT_DOUBLE_EQ(r.critical.length, 4.5);
  EXPECT_EQ(r.critical.tasks, (std::vector<TaskId>{1, 3}));
  // Slowest first: b (4 s), a (1.5 s mean), c.
  ASSERT_EQ(r.operations.size(), 3u);
  EXPECT_EQ(r.operations[0].operation, "b");
  EXPECT_DOUBLE_EQ(r.operations[1].mean, 1.5);
  // h1 was busy 3 of 4.5 s on one slot.
  ASSERT_EQ(r.hosts.size(), 2u);
  EXPECT_EQ(r.hosts[0].host, "h1");
  EXPECT_EQ(r.hosts[0].slots, 1);
  EXPECT_NEAR(r.hosts[0].utilization, 3 / 4.5, 1e-9);
}

TEST(SummaryObserverTest, AdditionsNameEachPart) {
  SummaryObserver s(nullptr);
  s.OnTaskSubmitted({0, "scale", {}, 0});
  s.OnJobEnded(Job(0, "scale", "node1", 0, 2));
  RunEvent t("transfer", 1000, 0.5, "node1");
  t.bytes = 100;
  s.OnEvent(t);
  EXPECT_EQ(
      FormatSummaryAdditions(s.Report()),
      "gsrt:   critical path: 2.00 s over 1 tasks (100% of the 2.00 s from "
      "the first call to the last job's end)\n"
      "gsrt:   utilization: node1 100% of 1 slots\n"
      "gsrt:   staging: 1 transfers, 100 bytes, 0.50 s\n"
      "gsrt:   slowest operations: scale 2.000 s (mean of 1), longest "
      "2.000 s\n");
}

// Utilization is of the host's slots as its jobs' starts tell them, not of
// the most jobs seen at once (issue 36).
TEST(SummaryObserverTest, UtilizationIsOfTheHostsSlots) {
  SummaryObserver s(nullptr);
  s.OnTaskSubmitted({0, "scale", {}, 0});
  s.OnTaskSubmitted({1, "scale", {}, 0});
  s.OnJobStarted({1, 0, "scale", "n1", 1000, false, false, 2});
  s.OnJobEnded(Job(0, "scale", "n1", 0, 2));
  s.OnJobStarted({2, 1, "scale", "n1", 1002, false, false, 2});
  s.OnJobEnded(Job(1, "scale", "n1", 2, 4));
  RunReport r = s.Report();
  ASSERT_EQ(r.hosts.size(), 1u);
  EXPECT_EQ(r.hosts[0].slots, 2);
  EXPECT_NEAR(r.hosts[0].utilization, 0.5, 1e-9);
  EXPECT_NE(FormatSummaryAdditions(r).find("n1 50% of 2 slots"),
            std::string::npos);
}

TEST(SummaryObserverTest, TheAdditionsAreSaidAsTheSummaryAtTheEnd) {
  RecordingMessages messages;
  SummaryObserver s(&messages);
  s.OnTaskSubmitted({0, "scale", {}, 0});
  s.OnJobEnded(Job(0, "scale", "node1", 0, 2));
  EXPECT_TRUE(messages.messages().empty());
  s.OnRunEnded(1002, RunStatus::kOk);
  ASSERT_EQ(messages.messages().size(), 1u);
  EXPECT_EQ(messages.messages()[0].kind, MessageKind::kSummary);
  EXPECT_EQ(messages.messages()[0].text, FormatSummaryAdditions(s.Report()));
}

TEST(SummaryObserverTest, ARunWithoutJobsAddsNothing) {
  RecordingMessages messages;
  SummaryObserver s(&messages);
  s.OnRunEnded(1000, RunStatus::kOk);
  EXPECT_TRUE(messages.messages().empty());
}

}  // namespace
}  // namespace gs
