#include "adapters/batch/batch_system.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ctime>

namespace gs {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::Not;

BatchSubmission Job(int array = 0) {
  BatchSubmission job;
  job.name = "gsrt-h-1";
  job.script = "/w/job.sh";
  job.output = "/w/out";
  job.array = array;
  return job;
}

TEST(SlurmSystemTest, SubmitArgvCarriesTheKeys) {
  auto slurm = MakeSlurmSystem();
  BatchConfig c;
  c.partition = "short";
  c.account = "proj";
  c.qos = "fast";
  c.walltime = 5400;
  c.cpus_per_task = 2;
  c.mem_mb = 512;
  c.extra = {"--exclusive"};
  auto argv = slurm->SubmitArgv(c, Job(3), false);
  EXPECT_EQ(argv.front(), "sbatch");
  EXPECT_EQ(argv.back(), "/w/job.sh");
  for (const char* want :
       {"--parsable", "--no-requeue", "--job-name=gsrt-h-1", "--array=0-2",
        "--output=/w/out.%a", "--partition=short", "--account=proj",
        "--qos=fast", "--time=1:30:00", "--cpus-per-task=2", "--mem=512",
        "--exclusive"}) {
    EXPECT_THAT(argv, Contains(want));
  }
  EXPECT_THAT(slurm->SubmitArgv(c, Job(), true), Contains("--test-only"));
  // A job whose operation needs more asks for it; less changes nothing.
  BatchSubmission big = Job();
  big.cpus = 6;
  big.mem_mb = 2048;
  EXPECT_THAT(slurm->SubmitArgv(c, big, false), Contains("--cpus-per-task=6"));
  EXPECT_THAT(slurm->SubmitArgv(c, big, false), Contains("--mem=2048"));
  big.cpus = 1;
  big.mem_mb = 10;
  EXPECT_THAT(slurm->SubmitArgv(c, big, false), Contains("--cpus-per-task=2"));
  EXPECT_THAT(slurm->SubmitArgv(c, big, false), Contains("--mem=512"));
  EXPECT_THAT(slurm->SubmitArgv(c, Job(), false), Contains("--output=/w/out"));
  // GPUs: the queue is asked for them (and names them); none, no --gres.
  BatchSubmission gpu = Job();
  gpu.gpus = 2;
  EXPECT_THAT(slurm->SubmitArgv(c, gpu, false), Contains("--gres=gpu:2"));
  for (const std::string& arg : slurm->SubmitArgv(c, Job(), false)) {
    EXPECT_EQ(arg.rfind("--gres", 0), std::string::npos) << arg;
  }
}

TEST(SlurmSystemTest, ParsesItsOutput) {
  auto slurm = MakeSlurmSystem();
  EXPECT_EQ(*slurm->ParseSubmitted("1234\n"), "1234");
  EXPECT_EQ(*slurm->ParseSubmitted("77;cluster\n"), "77");
  EXPECT_FALSE(slurm->ParseSubmitted("sbatch: error\n").ok());
  EXPECT_EQ(slurm->ElementId("12", 3), "12_3");
  auto jobs = slurm->ParseList("12_0 RUNNING\n12_1 PENDING\n13 COMPLETING\n");
  EXPECT_EQ(jobs.size(), 3u);
  EXPECT_EQ(jobs["12_1"], "PENDING");
  EXPECT_EQ(slurm->ParseMaxArraySize(
                "AuthType = x\nMaxArraySize            = 1001\n"),
            1001);
  EXPECT_EQ(slurm->ParseMaxArraySize("nothing"), std::nullopt);
}

TEST(BatchSystemTest, AnMpiJobAsksForItsNodesAndRanks) {
  BatchConfig c;
  BatchSubmission mpi = Job();
  mpi.cpus = 4;  // 2 ranks on each of 2 nodes
  mpi.nodes = 2;
  auto argv = MakeSlurmSystem()->SubmitArgv(c, mpi, false);
  EXPECT_THAT(argv, Contains("--nodes=2"));
  EXPECT_THAT(argv, Contains("--ntasks-per-node=2"));
  EXPECT_THAT(argv, Contains("--cpus-per-task=1"));
  EXPECT_THAT(argv, Not(Contains("--cpus-per-task=4")));
  EXPECT_THAT(MakePbsSystem()->SubmitArgv(c, mpi, false),
              Contains("nodes=2:ppn=2"));
  // One node: its ranks are tasks too, so that mpirun sees its slots.
  mpi.nodes = 1;
  argv = MakeSlurmSystem()->SubmitArgv(c, mpi, false);
  EXPECT_THAT(argv, Contains("--nodes=1"));
  EXPECT_THAT(argv, Contains("--ntasks-per-node=4"));
}

TEST(SlurmSystemTest, ReadsItsStartEstimates) {
  auto slurm = MakeSlurmSystem();
  const std::optional<Seconds> t = ParseSlurmTime("2026-12-07T16:30:05");
  ASSERT_TRUE(t.has_value());
  std::tm tm{};
  tm.tm_year = 126;
  tm.tm_mon = 11;
  tm.tm_mday = 7;
  tm.tm_hour = 16;
  tm.tm_min = 30;
  tm.tm_sec = 5;
  tm.tm_isdst = -1;
  EXPECT_EQ(*t, static_cast<Seconds>(std::mktime(&tm)));  // local time
  EXPECT_EQ(ParseSlurmTime("N/A"), std::nullopt);
  EXPECT_EQ(ParseSlurmTime("Unknown"), std::nullopt);
  EXPECT_EQ(ParseSlurmTime("2026-12-07T16:30:05x"), std::nullopt);

  EXPECT_THAT(slurm->StartsArgv("gsrt-h"),
              ElementsAre("squeue", "--noheader", "--start", "--array",
                          "--name=gsrt-h", "--format=%i %S"));
  auto starts =
      slurm->ParseStarts("12_0 2026-12-07T16:30:05\n12_1 N/A\n13 Unknown\n");
  EXPECT_EQ(starts.size(), 1u);
  EXPECT_EQ(starts["12_0"], *t);
  EXPECT_EQ(slurm->ParseTestOnlyStart(
                "sbatch: Job 3 to start at 2026-12-07T16:30:05 using 1 "
                "processors on nodes n1 in partition debug\n"),
            t);
  EXPECT_EQ(slurm->ParseTestOnlyStart("sbatch: error: nothing\n"),
            std::nullopt);
  // PBS says nothing of starts: the history answers there.
  auto pbs = MakePbsSystem();
  EXPECT_TRUE(pbs->StartsArgv("gsrt-h").empty());
  EXPECT_EQ(pbs->ParseTestOnlyStart("Job 3 to start at 2026-12-07T16:30:05"),
            std::nullopt);
}

TEST(PbsSystemTest, SubmitArgvAndListing) {
  auto pbs = MakePbsSystem();
  EXPECT_FALSE(pbs->SupportsArrays());
  BatchConfig c;
  c.partition = "batch";
  c.walltime = 90000;  // 25 h: PBS counts hours past a day
  c.cpus_per_task = 4;
  c.mem_mb = 100;
  auto argv = pbs->SubmitArgv(c, Job(), false);
  EXPECT_EQ(argv.front(), "qsub");
  EXPECT_THAT(argv, Contains("nodes=1:ppn=4,walltime=25:00:00,mem=100mb"));
  BatchSubmission gpu = Job();
  gpu.gpus = 1;
  EXPECT_THAT(pbs->SubmitArgv(c, gpu, false),
              Contains("nodes=1:ppn=4:gpus=1,walltime=25:00:00,mem=100mb"));
  BatchSubmission big = Job();
  big.cpus = 8;
  big.mem_mb = 4096;
  EXPECT_THAT(pbs->SubmitArgv(c, big, false),
              Contains("nodes=1:ppn=8,walltime=25:00:00,mem=4096mb"));
  EXPECT_THAT(argv, Contains("batch"));
  EXPECT_TRUE(pbs->SubmitArgv(c, Job(), true).empty());
  EXPECT_EQ(*pbs->ParseSubmitted("123.server\n"), "123");
  auto jobs = pbs->ParseList(
      "Job id              Name             Username        Time Use S Queue\n"
      "------------------- ---------------- --------------- -------- - -----\n"
      "3                   gsrt-x           root            00:00:00 R debug\n"
      "2.srv               gsrt-y           root            00:00:00 Q debug\n"
      "5                   gsrt-z           root            00:00:01 C "
      "debug\n");
  EXPECT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs["3"], "R");
  EXPECT_EQ(jobs["2"], "Q");
  EXPECT_THAT(pbs->CancelArgv({"3", "2"}), ElementsAre("qdel", "3", "2"));
}

}  // namespace
}  // namespace gs
