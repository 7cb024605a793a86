#include "adapters/batch/batch_system.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace gs {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;

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
  for (const char* want : {"--parsable", "--job-name=gsrt-h-1", "--array=0-2",
                           "--output=/w/out.%a", "--partition=short",
                           "--account=proj", "--qos=fast", "--time=1:30:00",
                           "--cpus-per-task=2", "--mem=512", "--exclusive"}) {
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
