#include "runtime/engine/job_table.h"

#include <gtest/gtest.h>

#include <vector>

namespace gs {
namespace {

JobEntry Job(TaskId task, HostId host, bool replica = false) {
  JobEntry e{task,
             host,
             /*predicted_end=*/10.0 + task,
             /*submitted=*/1.0,
             /*attempt=*/1,
             replica,
             {},
             Need{}};
  return e;
}

// The ids of the jobs a round walks, in its order.
std::vector<JobId> RunningIds(const JobTable& table) {
  std::vector<JobId> ids;
  for (const JobTable::Running& r : table.running()) ids.push_back(r.id);
  return ids;
}

TEST(JobTableTest, AddedJobsAreFoundByIdByTaskAndInTheRoundsArray) {
  JobTable table;
  table.Add(7, Job(1, 0));
  table.Add(8, Job(2, 1));
  table.Add(9, Job(1, 2, /*replica=*/true));
  EXPECT_EQ(table.size(), 3u);
  EXPECT_EQ(table.at(8).host, 1u);
  EXPECT_EQ(RunningIds(table), (std::vector<JobId>{7, 8, 9}));
  EXPECT_EQ(table.running()[2].host, 2u);
  EXPECT_EQ(table.running()[1].predicted_end, 12.0);
  EXPECT_EQ(table.instances().at(1), (std::vector<JobId>{7, 9}));
  EXPECT_EQ(table.instances().at(2), (std::vector<JobId>{8}));
  EXPECT_EQ(table.submitted(), 3u);
}

TEST(JobTableTest, CountsSubmittedAndSuccessfulJobsWithEarlierRuns) {
  JobTable table;
  table.AddEarlier(/*ok=*/4, /*submitted=*/6);
  table.Add(7, Job(1, 0));
  JobEntry job;
  std::vector<JobId> others;
  ASSERT_TRUE(table.Take(7, &job, &others));
  table.CountOk();
  EXPECT_EQ(table.ok(), 5u);
  EXPECT_EQ(table.submitted(), 7u) << "a job taken out stays counted";
}

TEST(JobTableTest, TakingAJobLeavesTheOthersOfItsTask) {
  JobTable table;
  table.Add(7, Job(1, 0));
  table.Add(8, Job(2, 1));
  table.Add(9, Job(1, 2, /*replica=*/true));
  JobEntry job;
  std::vector<JobId> others;
  ASSERT_TRUE(table.Take(7, &job, &others));
  EXPECT_EQ(job.task, 1u);
  EXPECT_EQ(job.host, 0u);
  EXPECT_EQ(others, std::vector<JobId>{9});
  // The last job took the taken one's place, and still knows where it is.
  EXPECT_EQ(RunningIds(table), (std::vector<JobId>{9, 8}));
  ASSERT_TRUE(table.Take(9, &job, &others));
  EXPECT_TRUE(job.replica);
  EXPECT_TRUE(others.empty());
  EXPECT_EQ(table.instances().count(1), 0u) << "no job of task 1 is out";
  EXPECT_EQ(RunningIds(table), std::vector<JobId>{8});
  EXPECT_EQ(table.size(), 1u);
}

TEST(JobTableTest, AJobNotOutCannotBeTaken) {
  JobTable table;
  table.Add(7, Job(1, 0));
  JobEntry job;
  std::vector<JobId> others{42};
  EXPECT_FALSE(table.Take(8, &job, &others));
  ASSERT_TRUE(table.Take(7, &job, &others));
  EXPECT_FALSE(table.Take(7, &job, &others)) << "taken once only";
  EXPECT_TRUE(table.empty());
  EXPECT_TRUE(table.running().empty());
  EXPECT_TRUE(table.instances().empty());
}

}  // namespace
}  // namespace gs
