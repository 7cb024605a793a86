// LocalJob's staging and collecting on the in-memory file system: no disk
// and no process (a worker's end is played by writing what it would have
// left in the sandbox and passing its wait status). The real disk and real
// workers are local_adapter_test's.
#include "adapters/local/local_job.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <boost/asio/io_context.hpp>
#include <memory>
#include <string>
#include <variant>

#include "runtime/base/messages.h"
#include "runtime/base/worker_failure.h"
#include "tests/support/job_spec_builder.h"
#include "tests/support/mem_file_system.h"

namespace gs {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr char kWorker[] = "/bin/worker";

int ExitStatus(int code) { return (code & 0xff) << 8; }

class LocalJobTest : public ::testing::Test {
 protected:
  LocalJobTest() {
    fs_.Put("/master/in.txt", "12345");
    fs_.Put("/master/edit.txt", "old");
    EXPECT_TRUE(fs_.CreateDirs("/w/jobs").ok());
    EXPECT_TRUE(fs_.CreateDirs("/w/logs").ok());
    host_.io = &io_;
    host_.fs = &fs_;
    host_.sandboxes = &sandboxes_;
    host_.evidence = &evidence_;
    host_.workers = &workers_;
    host_.messages = &messages_;
    host_.host_name = "h";
    host_.jobs_dir = "/w/jobs";
    host_.logs_dir = "/w/logs";
  }

  std::shared_ptr<LocalJob> Job(JobSpec spec) {
    return std::make_shared<LocalJob>(
        host_, std::move(spec), [](JobReport) {}, 0);
  }

  // What a worker that did its work leaves: its outputs, result, stdout.
  void Worked(const LocalJob& job, const std::string& result) {
    for (const OutputMove& out : job.command().outputs) {
      ASSERT_TRUE(fs_.WriteFile(out.temp, "made by " + out.temp).ok());
    }
    ASSERT_TRUE(fs_.WriteFile(job.command().result_path, result).ok());
    ASSERT_TRUE(fs_.WriteFile(job.sandbox() + "/stdout", "hello\n").ok());
    ASSERT_TRUE(fs_.WriteFile(job.sandbox() + "/stderr", "").ok());
  }

  boost::asio::io_context io_;
  testing::MemFileSystem fs_;
  SandboxPool sandboxes_{fs_, "/w/jobs", 2};
  FailureEvidence evidence_{fs_, "/w/failed", "s1"};
  WorkerLaunch launch_;
  WorkerPool workers_{WorkerPoolLimits{}, kServeCommand, &launch_};
  RecordingMessages messages_;
  LocalJobHost host_;
};

TEST_F(LocalJobTest, StageSizesInputsAndCopiesInoutFilesIntoThePrivateSandbox) {
  auto job = Job(TestJob(
      7, kWorker, "edit",
      {FileIn("/master/in.txt"), FileInOut("/master/edit.txt", "/out/edit.txt"),
       FileOut("/out/new.txt")}));
  ASSERT_EQ(job->Stage(), std::nullopt);
  EXPECT_EQ(job->sandbox(), "/w/jobs/7");
  EXPECT_TRUE(fs_.IsPrivate("/w/jobs/7"));
  EXPECT_EQ(job->bytes_in(), 5u + 3u);
  ASSERT_EQ(job->command().outputs.size(), 2u);
  EXPECT_EQ(fs_.Contents(job->command().outputs[0].temp), "old");
  EXPECT_EQ(fs_.Contents(job->command().outputs[1].temp), std::nullopt)
      << "a plain output starts absent";
  EXPECT_EQ(fs_.Contents("/master/edit.txt"), "old") << "the input stays";
}

TEST_F(LocalJobTest, StagePassesAbsentInputsThrough) {
  auto job = Job(TestJob(
      8, kWorker, "append",
      {FileIn("/master/none"), FileInOut("/master/none", "/out/log.txt")}));
  ASSERT_EQ(job->Stage(), std::nullopt);
  EXPECT_EQ(job->bytes_in(), 0u);
  EXPECT_EQ(fs_.FilesUnder("/w/jobs/8"), std::vector<std::string>{})
      << "the worker starts without the file";
}

TEST_F(LocalJobTest, StageThatCannotBuildTheCommandLeavesNoSandbox) {
  auto job = Job(TestJob(9, "relative/worker", "op"));
  auto failed = job->Stage();
  ASSERT_TRUE(failed.has_value());
  const Exited* e = std::get_if<Exited>(&*failed);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->code, 127);
  EXPECT_FALSE(fs_.IsDir("/w/jobs/9"));
}

TEST_F(LocalJobTest, StageGivesAKCoreJobKOpenMpThreads) {
  if (std::getenv("OMP_NUM_THREADS") != nullptr) {
    GTEST_SKIP() << "OMP_NUM_THREADS is set here";
  }
  JobSpec spec = TestJob(10, kWorker, "op");
  spec.cores = 4;
  auto job = Job(spec);
  ASSERT_EQ(job->Stage(), std::nullopt);
  EXPECT_THAT(job->spec().env,
              ::testing::Contains(std::string("OMP_NUM_THREADS=4")));
}

TEST_F(LocalJobTest, CollectMovesOutputsKeepsLogsAndPoolsTheSandbox) {
  auto job = Job(TestJob(11, kWorker, "edit",
                         {FileInOut("/master/edit.txt", "/out/edit.txt"),
                          FileOut("/out/deep/new.txt"), OutScalar()}));
  ASSERT_EQ(job->Stage(), std::nullopt);
  Worked(*job, "42\n");
  Exited e = job->Collect(ExitStatus(0));
  EXPECT_TRUE(e.succeeded()) << e.error;
  EXPECT_EQ(e.results, "42\n");
  EXPECT_EQ(fs_.Contents("/out/edit.txt"), "made by /w/jobs/11/out.0");
  EXPECT_EQ(fs_.Contents("/out/deep/new.txt"), "made by /w/jobs/11/out.1")
      << "the missing directories of a destination are made";
  EXPECT_EQ(e.bytes_out, 2 * std::string("made by /w/jobs/11/out.0").size());
  EXPECT_EQ(e.log_dir, "/w/logs");
  EXPECT_EQ(fs_.Contents("/w/logs/job-11.stdout"), "hello\n");
  EXPECT_EQ(fs_.Contents("/w/logs/job-11.stderr"), std::nullopt)
      << "an empty log is not kept";
  EXPECT_FALSE(fs_.Contents("/w/jobs/11/stdout").has_value())
      << "the log moved out of the sandbox";
  EXPECT_EQ(sandboxes_.idle(), 1);
}

TEST_F(LocalJobTest, AReusedSandboxsResultDoesNotCountForTheNextJob) {
  auto first = Job(TestJob(12, kWorker, "op", {OutScalar()}));
  ASSERT_EQ(first->Stage(), std::nullopt);
  Worked(*first, "1\n");
  ASSERT_TRUE(first->Collect(ExitStatus(0)).succeeded());
  ASSERT_EQ(sandboxes_.idle(), 1);

  auto second = Job(TestJob(13, kWorker, "op", {OutScalar()}));
  ASSERT_EQ(second->Stage(), std::nullopt);
  EXPECT_EQ(sandboxes_.idle(), 0) << "the pooled sandbox was taken";
  Exited e = second->Collect(ExitStatus(0));  // wrote nothing
  EXPECT_FALSE(e.succeeded());
  EXPECT_THAT(e.error, HasSubstr("result file is unusable"));
  EXPECT_EQ(e.log_dir, "/w/jobs/12") << "the sandbox job 12 made";
}

TEST_F(LocalJobTest, CollectNamesAnOutputThatWasNotWritten) {
  auto job = Job(TestJob(14, kWorker, "op", {FileOut("/out/x.txt")}));
  ASSERT_EQ(job->Stage(), std::nullopt);
  ASSERT_TRUE(fs_.WriteFile(job->command().result_path, "").ok());
  Exited e = job->Collect(ExitStatus(0));
  EXPECT_EQ(e.error,
            "declared output '/out/x.txt' (parameter 0) was not written");
  EXPECT_EQ(fs_.Contents("/out/x.txt"), std::nullopt);
}

TEST_F(LocalJobTest, CollectTellsExitCodesSignalsThrowsAndAFullDisk) {
  auto job = Job(TestJob(15, kWorker, "count"));
  ASSERT_EQ(job->Stage(), std::nullopt);
  Exited code = job->Collect(ExitStatus(3));
  EXPECT_EQ(code.code, 3);
  EXPECT_EQ(code.error, "exit code 3");

  Exited killed = job->Collect(SIGKILL);
  EXPECT_EQ(killed.code, 128 + SIGKILL);
  EXPECT_EQ(killed.error, "killed by signal 9 (SIGKILL)");

  ASSERT_TRUE(
      fs_.WriteFile(job->command().result_path, EncodeThrown("no input")).ok());
  Exited threw = job->Collect(ExitStatus(1));
  EXPECT_EQ(threw.error, ThrownError("count", "no input"));

  ASSERT_TRUE(fs_.Remove(job->command().result_path).ok());
  fs_.set_free_bytes(100);
  Exited full = job->Collect(ExitStatus(1));
  EXPECT_THAT(full.error, StartsWith("exit code 1; the file system of "
                                     "/w/jobs/15 is full"));
}

TEST_F(LocalJobTest, AFailedJobsSandboxIsKeptAsEvidence) {
  auto job = Job(TestJob(16, kWorker, "count", {FileOut("/out/x.txt")}));
  ASSERT_EQ(job->Stage(), std::nullopt);
  ASSERT_TRUE(fs_.WriteFile("/w/jobs/16/stderr", "it broke\n").ok());
  JobReport report = job->Conclude(/*reaped=*/true, ExitStatus(2), 0);
  const Exited* e = std::get_if<Exited>(&report.outcome);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->code, 2);
  EXPECT_EQ(e->log_dir, "/w/failed/s1/task-16-count-job-16");
  EXPECT_EQ(fs_.Contents(e->log_dir + "/stderr"), "it broke\n");
  EXPECT_FALSE(fs_.IsDir("/w/jobs/16"));
  EXPECT_TRUE(fs_.IsPrivate("/w/failed/s1"));
  EXPECT_TRUE(job->finished());
}

TEST_F(LocalJobTest, EvidenceThatCannotBeKeptIsAWarning) {
  fs_.Put("/w/failed", "a file in the way");
  auto job = Job(TestJob(17, kWorker, "count"));
  ASSERT_EQ(job->Stage(), std::nullopt);
  JobReport report = job->Conclude(/*reaped=*/true, ExitStatus(2), 0);
  const Exited* e = std::get_if<Exited>(&report.outcome);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->log_dir, "/w/jobs/17") << "left where it ran";
  EXPECT_TRUE(messages_.Has(MessageKind::kWarning,
                            "gsrt: host 'h': cannot create /w/failed/s1"))
      << messages_.AllText();
}

TEST_F(LocalJobTest, ACancelledOrLostJobLeavesNoSandbox) {
  auto cancelled = Job(TestJob(18, kWorker, "op"));
  ASSERT_EQ(cancelled->Stage(), std::nullopt);
  cancelled->Cancel();  // no process yet: the kill goes nowhere
  JobReport report = cancelled->Conclude(true, SIGKILL, 0);
  EXPECT_TRUE(std::holds_alternative<Cancelled>(report.outcome));
  EXPECT_FALSE(fs_.IsDir("/w/jobs/18"));

  auto lost = Job(TestJob(19, kWorker, "op"));
  ASSERT_EQ(lost->Stage(), std::nullopt);
  report = lost->Conclude(/*reaped=*/false, 0, ECHILD);
  const HostFailed* failed = std::get_if<HostFailed>(&report.outcome);
  ASSERT_NE(failed, nullptr);
  EXPECT_THAT(failed->reason, HasSubstr("lost the exit status"));
  EXPECT_FALSE(fs_.IsDir("/w/jobs/19"));
}

}  // namespace
}  // namespace gs
