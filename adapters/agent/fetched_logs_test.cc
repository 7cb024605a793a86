#include "adapters/agent/fetched_logs.h"

#include <gtest/gtest.h>

namespace gs {
namespace {

TEST(FetchedLogsTest, DirMirrorsTheHostsSessionAndNameUnderTheHost) {
  EXPECT_EQ(
      FetchedLogsDir("/m/.gsrt/failed", "n2",
                     "/scratch/w/failed/20261206-0245-7/task-3-op-job-12"),
      "/m/.gsrt/failed/n2/20261206-0245-7/task-3-op-job-12");
  // A trailing slash changes nothing.
  EXPECT_EQ(FetchedLogsDir("/f", "n2", "/w/failed/s/task-1-op-job-1/"),
            "/f/n2/s/task-1-op-job-1");
}

TEST(FetchedLogsTest, DirNeverLeavesTheHostsDirectory) {
  EXPECT_EQ(FetchedLogsDir("/f", "../etc", "/w/failed/s/x"), "/f/.._etc/s/x");
  EXPECT_EQ(FetchedLogsDir("/f", "h' pilot 'p0", "/w/failed/s/x"),
            "/f/h__pilot__p0/s/x");
  EXPECT_EQ(FetchedLogsDir("/f", "n2", "/w/../.."), "/f/n2/_/_");
  EXPECT_EQ(FetchedLogsDir("/f", "", "job"), "/f/_/job");
}

TEST(FetchedLogsTest, CutKeepsTheLastBytes) {
  std::string small = "abc";
  EXPECT_FALSE(CutToTail(&small, 3));
  EXPECT_EQ(small, "abc");
  std::string big = "0123456789";
  EXPECT_TRUE(CutToTail(&big, 4));
  EXPECT_EQ(big, "6789");
  std::string log(kFetchedLogBytes + 1, 'x');
  log.back() = 'E';
  EXPECT_TRUE(CutToTail(&log, kFetchedLogBytes));
  EXPECT_EQ(log.size(), kFetchedLogBytes);
  EXPECT_EQ(log.back(), 'E');
}

TEST(FetchedLogsTest, NoteNamesTheHostAndThePathThere) {
  FetchedLogs logs;
  logs.host = "n2";
  logs.host_dir = "/w/failed/s/task-3-op-job-12";
  EXPECT_EQ(FetchedLogsNote(logs),
            "fetched from host 'n2': /w/failed/s/task-3-op-job-12");
  logs.cut = {"stderr"};
  EXPECT_EQ(FetchedLogsNote(logs),
            "fetched from host 'n2': /w/failed/s/task-3-op-job-12; stderr cut "
            "to its last 64 KiB");
}

TEST(FetchedLogsTest, NoteSaysWhyTheLogsStayedOnTheHost) {
  FetchedLogs logs;
  logs.host = "n2";
  logs.host_dir = "/w/failed/s/j";
  logs.unreachable = true;
  logs.why_not = "the agent did not answer";
  EXPECT_EQ(FetchedLogsNote(logs),
            "still on host 'n2', which was unreachable: not fetched (the agent "
            "did not answer)");
  logs.unreachable = false;
  logs.why_not = "disk full";
  EXPECT_EQ(FetchedLogsNote(logs),
            "still on host 'n2': not fetched (disk full)");
}

}  // namespace
}  // namespace gs
