// The progress line and the summary printed at GS_Off.
#include "runtime/engine/run_stats.h"

#include <gtest/gtest.h>

namespace gs {
namespace {

TEST(RunStatsTest, ProgressCountsWaitingAsWhatIsLeft) {
  RunStats s;
  s.submitted = 10;
  s.done = 4;
  s.running = 2;
  s.failed = 1;
  s.futile = 1;
  EXPECT_EQ(FormatProgress(s), "gsrt: 4 done, 2 running, 2 waiting, 2 failed");
}

// Prefetched jobs wait in their host's queue: not running (issue 36: "6
// running" on 3 slots).
TEST(RunStatsTest, ProgressCountsJobsQueuedOnHostsApart) {
  RunStats s;
  s.submitted = 20;
  s.done = 4;
  s.running = 6;  // tasks with a job out
  s.queued_on_hosts = 3;
  EXPECT_EQ(FormatProgress(s),
            "gsrt: 4 done, 3 running, 3 queued on hosts, 10 waiting, 0 failed");
}

// Results reused from earlier runs (docs/reuse.md) are counted apart.
TEST(RunStatsTest, ProgressAndSummaryCountReusedTasksApart) {
  RunStats s;
  s.submitted = 1204;
  s.done = 1204;
  s.reused_earlier = 1201;
  s.jobs = 3;
  EXPECT_EQ(FormatProgress(s),
            "gsrt: 1204 done (1201 reused), 0 running, 0 waiting, 0 failed");
  EXPECT_EQ(FormatSummary(s, 2),
            "gsrt: 1204 tasks in 2.00 s: 1204 done, 0 failed, 0 not run; 3 "
            "jobs (0 retries)\n"
            "gsrt:   1204 tasks: 3 run, 1201 reused from earlier runs\n");
}

TEST(RunStatsTest, SummaryNamesHostsFailuresAndNotes) {
  RunStats s;
  s.submitted = 3;
  s.done = 1;
  s.failed = 1;
  s.futile = 1;
  s.jobs = 3;
  s.retries = 1;
  s.jobs_per_host["node1"] = 2;
  s.jobs_per_host["node2"] = 1;
  s.failures.push_back({7, "blur", "blur(in.png, out.png, 2.5)", "exit code 3",
                        "/w/.gsrt/logs/job-3", 2});
  s.failures.push_back({9, "sum", "", "not placed", "", 0});
  s.notes.push_back("host node2 is back");
  EXPECT_EQ(FormatSummary(s, 1.5),
            "gsrt: 3 tasks in 1.50 s: 1 done, 1 failed, 1 not run; 3 jobs "
            "(1 retries)\n"
            "gsrt:   2 jobs on node1\n"
            "gsrt:   1 jobs on node2\n"
            "gsrt: task 7 (blur) failed after 2 attempts: exit code 3; logs "
            "in /w/.gsrt/logs/job-3\n"
            "gsrt:   called as blur(in.png, out.png, 2.5)\n"
            "gsrt: task 9 (sum) failed after 0 attempts: not placed\n"
            "gsrt: host node2 is back\n");
}

TEST(RunStatsTest, SummarySaysWhereRemoteLogsCameFrom) {
  RunStats s;
  s.failures.push_back({12, "render_band", "", "exit code 1",
                        "/m/.gsrt/failed/n2/s/task-12-render_band-job-12", 1,
                        "fetched from host 'n2': /w/failed/s/"
                        "task-12-render_band-job-12"});
  EXPECT_NE(FormatSummary(s, 0).find(
                "gsrt: task 12 (render_band) failed after 1 attempt: exit "
                "code 1; logs in /m/.gsrt/failed/n2/s/task-12-render_band-"
                "job-12 (fetched from host 'n2': /w/failed/s/task-12-render_"
                "band-job-12)\n"),
            std::string::npos)
      << FormatSummary(s, 0);
}

TEST(RunStatsTest, SummaryMentionsReplicasOnlyWhenThereWere) {
  RunStats s;
  EXPECT_EQ(FormatSummary(s, 0).find("replicas"), std::string::npos);
  s.replicas = 4;
  s.replica_wins = 1;
  EXPECT_NE(FormatSummary(s, 0).find("4 replicas started, 1 finished first"),
            std::string::npos);
}

}  // namespace
}  // namespace gs
