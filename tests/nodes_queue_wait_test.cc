// Queue waits predicted from the queue (issue 30), on the many-node Slurm
// bed (tests/testbed/slurm_nodes.sh) with its queue held busy by a job on
// every node: a pending job's expected start is Slurm's own (`squeue
// --start`, planned by its backfill scheduler) when Slurm gives one, and
// the history of jobs of its size when it gives none.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstdlib>
#include <thread>

#include "adapters/batch/batch_adapter.h"
#include "adapters/batch/batch_system.h"
#include "adapters/batch/job_adapter.h"
#include "runtime/base/asio_clock.h"
#include "tests/support/job_spec_builder.h"
#include "tests/support/report_collector.h"
#include "tests/support/run_until.h"
#include "tests/support/shell_command.h"
#include "tests/support/temp_dir.h"

namespace gs {
namespace {

using ::gs::testing::ShellOutput;

class NodesQueueWaitTest : public ::testing::Test {
 protected:
  NodesQueueWaitTest() : clock_(io_) {}

  void SetUp() override {
    const std::string dir = GSRT_SLURM_NODES_DIR;
    // Started by ctest's fixture; alone, the test starts it (idempotent).
    const auto [status, out] = ::gs::testing::Shell(
        "bash " GSRT_SOURCE_DIR "/tests/testbed/slurm_nodes.sh start " + dir +
        " 3");
    ASSERT_EQ(status, 0) << out;
    ::setenv("SLURM_CONF", (dir + "/etc/slurm.conf").c_str(), 1);
  }

  void TearDown() override {
    ShellOutput("scancel --quiet --name=" + hold_name_);
  }

  BatchAdapterOptions Options() {
    BatchAdapterOptions o;
    o.host.name = "queue";
    o.host.adapters = {AdapterKind::kSlurm};
    o.host.slots = 4;
    o.host.workdir = dir_ / "work";
    o.host.shared_fs = true;
    o.host.batch.mode = BatchMode::kJob;
    o.agent_program = GSRT_AGENT;
    o.worker = GSRT_TEST_WORKER;
    o.poll_interval = 0.3;
    return o;
  }

  // Holds every CPU of the bed with one job of a 10-minute time limit, so
  // that Slurm plans the next job's start at that job's end. Returns its
  // id once it runs ("" if it never did).
  std::string HoldTheQueue() {
    const std::string id =
        ShellOutput("sbatch --parsable --job-name=" + hold_name_ +
                    " --nodes=3 --exclusive --time=10 --output=/dev/null "
                    "--wrap 'sleep 600'");
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (ShellOutput("squeue -h -j " + id + " -o %T") != "RUNNING") {
      if (std::chrono::steady_clock::now() > deadline) {
        ADD_FAILURE() << "the job holding the queue did not start: " << id;
        return "";
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    return id;
  }

  // What `squeue --start` says of batch job `id`: its start in seconds
  // since the epoch, or nullopt for N/A.
  static std::optional<Seconds> SlurmStart(const std::string& id) {
    return ParseSlurmTime(ShellOutput("squeue -h --start -j " + id + " -o %S"));
  }

  TempDir dir_;
  boost::asio::io_context io_;
  AsioClock clock_;
  ReportCollector reports_;
  const std::string hold_name_ = "gsrt-hold-" + std::to_string(::getpid());
};

TEST_F(NodesQueueWaitTest, APendingJobsStartIsSlurmsEstimate) {
  BatchJobAdapter adapter(io_, clock_, Options(), MakeSlurmSystem());
  ASSERT_TRUE(adapter.Connect().ok());
  // The queue is idle: `sbatch --test-only` says a job starts now.
  WaitEstimate e = adapter.queue_wait_estimate();
  EXPECT_EQ(e.basis, WaitBasis::kBatchSystem);
  EXPECT_LT(e.seconds, 5);

  const std::string hold = HoldTheQueue();
  ASSERT_FALSE(hold.empty());
  reports_.Submit(
      adapter, TestJob(1, GSRT_TEST_WORKER, "noop", std::vector<JobParam>{}));
  // Slurm plans our pending job at the end of the holding job (10 minutes
  // from its start); the adapter reads it from squeue --start.
  ASSERT_TRUE(RunUntil(
      io_,
      [&] {
        e = adapter.queue_wait_estimate();
        return e.basis == WaitBasis::kBatchSystem && e.seconds > 60;
      },
      std::chrono::seconds(60)))
      << "estimate " << e.seconds << " s from " << e.Describe();
  EXPECT_GT(e.seconds, 400);
  EXPECT_LE(e.seconds, 601);
  ASSERT_EQ(adapter.BatchIds().size(), 1u);
  const std::optional<Seconds> start = SlurmStart(adapter.BatchIds()[0]);
  ASSERT_TRUE(start.has_value());
  EXPECT_NEAR(*start - clock_.Now(), adapter.queue_wait_estimate().seconds, 3);
  // Where the scheduler reads it.
  EXPECT_NEAR(adapter.expected_start_delay(),
              adapter.queue_wait_estimate().seconds, 1);
  // And the probe (gsdeploy probe, then rank) reports it with its source.
  std::optional<StatusOr<HostProbe>> probe;
  adapter.Probe([&](StatusOr<HostProbe> p) { probe = std::move(p); });
  ASSERT_TRUE(RunUntil(io_, [&] { return probe.has_value(); }));
  ASSERT_TRUE(probe->ok()) << probe->status().ToString();
  EXPECT_EQ((*probe)->queue_wait_basis, "slurm estimate");
  EXPECT_GT((*probe)->queue_wait, 400);
  adapter.Shutdown();
}

TEST_F(NodesQueueWaitTest, WithoutSlurmsEstimateTheHistoryOfJobsOfItsSize) {
  BatchAdapterOptions o = Options();
  // A held job is never planned: Slurm gives it no start.
  o.host.batch.extra = {"--hold"};
  // Earlier runs: two jobs of this size waited 100 and 200 s, a 3-node one
  // 5000 s.
  o.past_queue_waits = {{{1, 1, 0}, 100}, {{1, 3, 0}, 5000}, {{1, 1, 0}, 200}};
  BatchJobAdapter adapter(io_, clock_, o, MakeSlurmSystem());
  ASSERT_TRUE(adapter.Connect().ok());
  ASSERT_FALSE(HoldTheQueue().empty());
  reports_.Submit(
      adapter, TestJob(1, GSRT_TEST_WORKER, "noop", std::vector<JobParam>{}));
  WaitEstimate e;
  ASSERT_TRUE(RunUntil(
      io_,
      [&] {
        e = adapter.queue_wait_estimate();
        return e.basis == WaitBasis::kHistoryBySize;
      },
      std::chrono::seconds(60)))
      << "estimate " << e.seconds << " s from " << e.Describe();
  EXPECT_DOUBLE_EQ(e.seconds, 150);
  EXPECT_EQ(e.samples, 2);
  ASSERT_EQ(adapter.BatchIds().size(), 1u);
  EXPECT_EQ(SlurmStart(adapter.BatchIds()[0]), std::nullopt);
  EXPECT_DOUBLE_EQ(adapter.expected_start_delay(), 150);
  adapter.Shutdown();
}

}  // namespace
}  // namespace gs
