// The Slurm and PBS adapters against the real local Slurm testbed, beyond
// the conformance suite: bad input gives clear errors, job arrays, exit
// records vs. jobs cancelled from outside, lost pilots, the token never
// shown, queue waits in the history.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>

#include "adapters/batch/batch_adapter.h"
#include "adapters/batch/batch_commands.h"
#include "adapters/batch/job_adapter.h"
#include "adapters/batch/pilot_adapter.h"
#include "runtime/base/asio_clock.h"
#include "runtime/base/process_spawn.h"
#include "tests/support/job_spec_builder.h"
#include "tests/support/report_collector.h"
#include "tests/support/run_until.h"
#include "tests/support/shell_command.h"
#include "tests/support/slurm_testbed.h"
#include "tests/support/sshd_testbed.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_files.h"

namespace gs {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

// The test's own look at Slurm (tests/support/shell_command.h).
using gs::testing::ShellOutput;

class SlurmAdapterTest : public ::testing::Test {
 protected:
  SlurmAdapterTest() : clock_(io_) {}

  void SetUp() override {
    const std::string& error = EnsureSlurmTestbed();
    ASSERT_EQ(error, "");
  }

  BatchAdapterOptions Options(std::string name, BatchMode mode,
                              AdapterKind kind = AdapterKind::kSlurm) {
    BatchAdapterOptions o;
    o.host.name = std::move(name);
    o.host.adapters = {kind};
    o.host.slots = 4;
    o.host.workdir = dir_ / "work";
    o.host.shared_fs = true;
    o.host.batch.mode = mode;
    o.agent_program = GSRT_AGENT;
    o.worker = GSRT_TEST_WORKER;
    o.heartbeat = 1;
    o.poll_interval = 0.3;
    o.pilot_start_timeout = 60;
    return o;
  }

  JobSpec Job(JobId id, std::string op, std::vector<JobParam> params = {}) {
    return TestJob(id, GSRT_TEST_WORKER, std::move(op), std::move(params));
  }

  // The wait Slurm predicts now for a one-core job (`sbatch --test-only`).
  std::optional<Seconds> SlurmPredictedWait() {
    const std::string out = ShellOutput("sbatch --test-only --wrap=true");
    const std::optional<Seconds> start =
        MakeSlurmSystem()->ParseTestOnlyStart(out);
    if (!start) return std::nullopt;
    return std::max<Seconds>(0, *start - clock_.Now());
  }

  bool WaitFor(JobId id) {
    return RunUntil(
        io_, [&] { return reports_.Has(id); }, std::chrono::seconds(60));
  }

  TempDir dir_;
  boost::asio::io_context io_;
  AsioClock clock_;
  ReportCollector reports_;
};

TEST_F(SlurmAdapterTest, UnknownPartitionIsNamed) {
  BatchAdapterOptions o = Options("badpart", BatchMode::kJob);
  o.host.batch.partition = "nosuchpart";
  o.where = "gsrt.yaml:7:5: ";
  auto adapter = MakeBatchAdapter(io_, clock_, o);
  Status s = adapter->Connect();
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.message(),
              AllOf(HasSubstr("gsrt.yaml:7:5"), HasSubstr("host 'badpart'"),
                    HasSubstr("partition 'nosuchpart' does not exist"),
                    HasSubstr("sinfo")));
}

TEST_F(SlurmAdapterTest, UnknownPbsQueueIsNamed) {
  BatchAdapterOptions o =
      Options("badqueue", BatchMode::kJob, AdapterKind::kPbs);
  o.host.batch.partition = "nosuchqueue";
  auto adapter = MakeBatchAdapter(io_, clock_, o);
  Status s = adapter->Connect();
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("partition 'nosuchqueue' does not exist"));
}

TEST_F(SlurmAdapterTest, RejectedSbatchOptionIsShownAtConnect) {
  for (BatchMode mode : {BatchMode::kJob, BatchMode::kPilot}) {
    BatchAdapterOptions o = Options("badopt", mode);
    o.host.batch.extra = {"--no-such-sbatch-option"};
    auto adapter = MakeBatchAdapter(io_, clock_, o);
    Status s = adapter->Connect();
    ASSERT_FALSE(s.ok());
    EXPECT_THAT(s.message(),
                AllOf(HasSubstr("host 'badopt'"), HasSubstr("sbatch refuses"),
                      HasSubstr("no-such-sbatch-option"), HasSubstr("extra")));
  }
}

TEST_F(SlurmAdapterTest, UnreachableSlurmSaysWhatToCheck) {
  // The testbed's config with a port where no slurmctld listens.
  const std::string conf = dir_ / "unreachable.conf";
  {
    std::ifstream in(SlurmTestbedDir() + "/etc/slurm.conf");
    std::ofstream out(conf);
    for (std::string line; std::getline(in, line);) {
      if (line.starts_with("SlurmctldPort=")) line = "SlurmctldPort=1";
      out << line << "\n";
    }
  }
  const std::string saved = std::getenv("SLURM_CONF");
  ::setenv("SLURM_CONF", conf.c_str(), 1);
  auto adapter = MakeBatchAdapter(io_, clock_, Options("far", BatchMode::kJob));
  Status s = adapter->Connect();
  ::setenv("SLURM_CONF", saved.c_str(), 1);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.message(),
              AllOf(HasSubstr("cannot reach slurm"), HasSubstr("host 'far'"),
                    HasSubstr("scontrol show config"),
                    HasSubstr("Unable to contact slurm controller"),
                    HasSubstr("SLURM_CONF (" + conf + ")")));
}

TEST_F(SlurmAdapterTest, MissingCommandsAreNamed) {
  const std::string saved = std::getenv("PATH");
  ::setenv("PATH", dir_.path().c_str(), 1);
  auto adapter =
      MakeBatchAdapter(io_, clock_, Options("nocmd", BatchMode::kJob));
  Status s = adapter->Connect();
  ::setenv("PATH", saved.c_str(), 1);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.message(), AllOf(HasSubstr("host 'nocmd'"),
                                 HasSubstr("sbatch is not in PATH")));
}

TEST_F(SlurmAdapterTest, JobsReadyTogetherGoOutAsArrays) {
  BatchAdapterOptions o = Options("arrays", BatchMode::kJob);
  o.host.slots = 5;
  o.max_array = 2;
  BatchJobAdapter adapter(io_, clock_, o, MakeSlurmSystem());
  ASSERT_TRUE(adapter.Connect().ok());
  EXPECT_EQ(adapter.max_array(), 2);
  for (JobId id = 1; id <= 5; ++id) {
    reports_.Submit(
        adapter,
        Job(id, "add", {Scalar("1"), Scalar(std::to_string(id)), OutScalar()}));
  }
  ASSERT_TRUE(RunUntil(
      io_, [&] { return reports_.size() == 5; }, std::chrono::seconds(60)));
  // 5 jobs in arrays of at most 2: three submissions.
  EXPECT_EQ(adapter.submissions(), 3);
  for (JobId id = 1; id <= 5; ++id) {
    const Exited* e = AsExited(reports_.Get(id));
    ASSERT_NE(e, nullptr) << OutcomeName(reports_.Get(id));
    EXPECT_EQ(e->results, std::to_string(1 + id) + "\n");
  }
  EXPECT_EQ(adapter.queue_waits().waits().size(), 5u);
}

TEST_F(SlurmAdapterTest, AJobCancelledFromOutsideIsAnInfrastructureFailure) {
  BatchJobAdapter adapter(io_, clock_, Options("outside", BatchMode::kJob),
                          MakeSlurmSystem());
  ASSERT_TRUE(adapter.Connect().ok());
  reports_.Submit(adapter, Job(1, "sleep", {Scalar("60000")}));
  ASSERT_TRUE(RunUntil(io_, [&] { return !adapter.BatchIds().empty(); }));
  const std::string id = adapter.BatchIds().front();
  // Running (so it would have written a record had it finished).
  ASSERT_TRUE(RunUntil(io_, [&] {
    return ShellOutput("squeue -h -j " + id + " -o %T").starts_with("RUNNING");
  }));
  ShellOutput("scancel " + id);
  ASSERT_TRUE(WaitFor(1));
  const auto* failed = std::get_if<HostFailed>(&reports_.Get(1).outcome);
  ASSERT_NE(failed, nullptr) << OutcomeName(reports_.Get(1));
  EXPECT_THAT(failed->reason, AllOf(HasSubstr("batch job " + id),
                                    HasSubstr("without an exit record")));
}

TEST_F(SlurmAdapterTest, CancelAndShutdownLeaveNothingInTheQueue) {
  BatchJobAdapter adapter(io_, clock_, Options("tidy", BatchMode::kJob),
                          MakeSlurmSystem());
  ASSERT_TRUE(adapter.Connect().ok());
  for (JobId id = 1; id <= 3; ++id) {
    reports_.Submit(adapter, Job(id, "sleep", {Scalar("60000")}));
  }
  ASSERT_TRUE(RunUntil(io_, [&] { return adapter.BatchIds().size() == 3; }));
  const std::vector<std::string> ids = adapter.BatchIds();
  adapter.Cancel(1);
  adapter.Shutdown();
  ASSERT_TRUE(RunUntil(io_, [&] { return reports_.size() == 3; }));
  for (JobId id = 1; id <= 3; ++id) {
    EXPECT_TRUE(std::holds_alternative<Cancelled>(reports_.Get(id).outcome));
  }
  std::string left;
  ASSERT_TRUE(RunUntil(io_, [&] {
    left = ShellOutput("squeue -h -r -o '%i %j' | grep gsrt-tidy- || true");
    return left.empty();
  })) << left;
}

TEST_F(SlurmAdapterTest, TheTokenIsNeverShown) {
  PilotAdapter adapter(io_, clock_, Options("secret", BatchMode::kPilot),
                       MakeSlurmSystem());
  ASSERT_TRUE(adapter.Connect().ok());
  const std::string dir = dir_ / "work/pilots";
  std::string token_file;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().filename().string().starts_with("token.")) {
      token_file = e.path();
    }
  }
  ASSERT_NE(token_file, "");
  struct stat st {};
  ASSERT_EQ(::stat(token_file.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  const std::string token = ReadText(token_file).value_or("").substr(0, 64);
  ASSERT_EQ(token.size(), 64u);
  const std::string id = adapter.PilotJobIds().front();
  EXPECT_THAT(ShellOutput("scontrol show job " + id), Not(HasSubstr(token)));
  EXPECT_THAT(ShellOutput("squeue -h -o '%o %k' -j " + id),
              Not(HasSubstr(token)));
  EXPECT_THAT(ShellOutput("ps -eo args"), Not(HasSubstr(token)));
  EXPECT_THAT(ReadText(dir + "/secret-p0.sh").value_or(""),
              Not(HasSubstr(token)));
  adapter.Shutdown();
  EXPECT_FALSE(Exists(token_file)) << "the token file outlived the run";
}

// Without `slots`, each pilot runs as many jobs as its allocation has CPUs
// and offers the memory it was given, whatever the node has.
TEST_F(SlurmAdapterTest, PilotsOfferWhatTheirAllocationGives) {
  BatchAdapterOptions o = Options("sized", BatchMode::kPilot);
  o.host.slots = 0;
  o.host.batch.pilots = 2;
  o.host.batch.cpus_per_task = 1;
  o.host.batch.mem_mb = 200;
  ASSERT_TRUE(o.host.SlotsFromPilots());
  PilotAdapter adapter(io_, clock_, o, MakeSlurmSystem());
  ASSERT_TRUE(adapter.Connect().ok());
  ASSERT_TRUE(RunUntil(
      io_, [&] { return adapter.core_capacity() == 2; },
      std::chrono::seconds(30)))
      << "two pilots of one CPU each; offered " << adapter.core_capacity();
  EXPECT_EQ(adapter.FreeSlots(), 2);
  EXPECT_EQ(adapter.memory_capacity(), uint64_t{200} << 20);
  // The pilot scripts leave the count to the allocation.
  std::optional<std::string> script =
      ReadText(dir_ / "work/pilots/sized-p0.sh");
  ASSERT_TRUE(script.has_value());
  EXPECT_THAT(*script, Not(HasSubstr("--slots")));
  adapter.Shutdown();
}

TEST_F(SlurmAdapterTest, ALostPilotIsReplaced) {
  BatchAdapterOptions o = Options("replace", BatchMode::kPilot);
  PilotAdapter adapter(io_, clock_, o, MakeSlurmSystem());
  RecordingMessages said;
  adapter.SetMessages(&said);
  ASSERT_TRUE(adapter.Connect().ok());
  const std::string first = adapter.PilotJobIds().front();
  reports_.Submit(adapter, Job(1, "sleep", {Scalar("60000")}));
  ShellOutput("scancel " + first);
  ASSERT_TRUE(WaitFor(1));
  EXPECT_TRUE(std::holds_alternative<HostFailed>(reports_.Get(1).outcome))
      << OutcomeName(reports_.Get(1));
  ASSERT_TRUE(RunUntil(io_, [&] {
    return said.Has(MessageKind::kHostEvent,
                    "gsrt: host 'replace': pilot replace-p0 (batch job " +
                        first + ") retired: lost: ");
  })) << said.AllText();
  Status back;
  bool done = false;
  adapter.Reconnect([&](Status s) {
    back = s;
    done = true;
  });
  ASSERT_TRUE(RunUntil(
      io_, [&] { return done; }, std::chrono::seconds(60)));
  ASSERT_TRUE(back.ok()) << back.ToString();
  EXPECT_NE(adapter.PilotJobIds().front(), first);
  JobSpec add = Job(2, "add", {Scalar("2"), Scalar("3"), OutScalar()});
  reports_.Submit(adapter, add);
  ASSERT_TRUE(WaitFor(2));
  ASSERT_NE(AsExited(reports_.Get(2)), nullptr);
  EXPECT_EQ(AsExited(reports_.Get(2))->results, "5\n");
}

// A master killed while its pilot waits in the queue: the master started
// after it in the same work dir takes the queued pilot over (no new one is
// submitted, so its place in the queue is kept) and the pilot, once it
// starts, serves the new master.
TEST_F(SlurmAdapterTest, AQueuedPilotOfAKilledMasterServesTheNextOne) {
  BatchAdapterOptions o = Options("kept", BatchMode::kPilot);
  const std::string pilots = dir_ / "work/pilots";
  const pid_t first = ::fork();
  ASSERT_GE(first, 0);
  if (first == 0) {
    // The first master: its pilot is submitted held, so it stays queued.
    boost::asio::io_context io;
    AsioClock clock(io);
    BatchAdapterOptions held = o;
    held.host.batch.extra = {"--hold"};
    PilotAdapter adapter(io, clock, held, MakeSlurmSystem());
    (void)adapter.Connect();  // waits for a pilot that cannot start
    ::_exit(0);
  }
  // Its record is written once sbatch has given the id.
  std::string record;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (record.empty() && std::chrono::steady_clock::now() < deadline) {
    record = ReadText(pilots + "/kept-p0.id").value_or("");
    if (record.empty())
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ::kill(first, SIGKILL);
  ::waitpid(first, nullptr, 0);
  ASSERT_FALSE(record.empty()) << "the first master recorded no pilot";
  const std::string id = record.substr(0, record.find(' '));
  EXPECT_EQ(ShellOutput("squeue -h -j " + id + " -o %T"), "PENDING");
  // The dead master's token file, as it left it.
  std::string token_file;
  for (const auto& e : std::filesystem::directory_iterator(pilots)) {
    if (e.path().filename().string().starts_with("token.")) {
      token_file = e.path().string();
    }
  }
  ASSERT_FALSE(token_file.empty());
  const std::string old_text = ReadText(token_file).value_or("");

  // The pilot is released once the next master has rewritten the file
  // (before, it would find nobody at the old address).
  std::thread releaser([&] {
    const auto until =
        std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (ReadText(token_file).value_or(old_text) == old_text &&
           std::chrono::steady_clock::now() < until) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ShellOutput("scontrol release " + id);
  });
  PilotAdapter next(io_, clock_, o, MakeSlurmSystem());
  RecordingMessages said;
  next.SetMessages(&said);
  Status s = next.Connect();
  releaser.join();
  ASSERT_TRUE(s.ok()) << s.ToString();
  // Known as queued before it started (not merely greeted as a stranger
  // once it did), and the only pilot: no other was submitted.
  EXPECT_TRUE(said.Has(MessageKind::kHostEvent,
                       "pilot kept-p0 (batch job " + id +
                           ") of an interrupted master is still queued: "
                           "taken over"))
      << said.AllText();
  EXPECT_THAT(next.PilotJobIds(), ::testing::ElementsAre(id));
  EXPECT_FALSE(std::filesystem::exists(pilots + "/kept-p1.sh"));
  reports_.Submit(next, Job(1, "add", {Scalar("2"), Scalar("3"), OutScalar()}));
  ASSERT_TRUE(WaitFor(1));
  ASSERT_NE(AsExited(reports_.Get(1)), nullptr) << OutcomeName(reports_.Get(1));
  EXPECT_EQ(AsExited(reports_.Get(1))->results, "5\n");
  next.Shutdown();
  // Its files go with it, as those of the master's own pilots.
  for (const char* f : {"kept-p0.sh", "kept-p0.id", "kept-p0.out"}) {
    EXPECT_FALSE(std::filesystem::exists(pilots + "/" + f)) << f;
  }
  EXPECT_FALSE(std::filesystem::exists(token_file));
}

TEST_F(SlurmAdapterTest, QueueWaitsAreReportedAndSeedTheProbe) {
  std::vector<QueueWaitSample> waits;
  {
    BatchAdapterOptions o = Options("waits", BatchMode::kJob);
    BatchJobAdapter adapter(io_, clock_, o, MakeSlurmSystem());
    ASSERT_TRUE(adapter.Connect().ok());
    reports_.Submit(adapter, Job(1, "noop"));
    reports_.Submit(adapter, Job(2, "noop"));
    ASSERT_TRUE(RunUntil(
        io_, [&] { return reports_.size() == 2; }, std::chrono::seconds(60)));
    waits = adapter.TakeQueueWaits();
    // Each wait is handed over once: the engine records it.
    EXPECT_TRUE(adapter.TakeQueueWaits().empty());
  }
  ASSERT_EQ(waits.size(), 2u);
  for (const QueueWaitSample& w : waits) {
    EXPECT_GE(w.started, w.submitted);
    EXPECT_LT(w.started - w.submitted, 60);
    // With the job's size, for predicting jobs like it.
    EXPECT_EQ(w.nodes, 1);
    EXPECT_EQ(w.cores, 1);
  }
  // A later run predicts from them (whoever makes the adapter passes the
  // earlier runs' waits), and its probe reports the prediction.
  BatchAdapterOptions o = Options("waits", BatchMode::kJob);
  for (const QueueWaitSample& w : waits) {
    o.past_queue_waits.push_back(
        {{w.cores, w.nodes, w.walltime}, w.started - w.submitted});
  }
  // Other tests share the cluster: what Slurm predicts for a job like
  // this one, asked just before and just after, brackets the probe's.
  const std::optional<Seconds> slurm_before = SlurmPredictedWait();
  BatchJobAdapter later(io_, clock_, o, MakeSlurmSystem());
  ASSERT_TRUE(later.Connect().ok());
  std::optional<StatusOr<HostProbe>> probe;
  later.Probe([&](StatusOr<HostProbe> p) { probe = std::move(p); });
  ASSERT_TRUE(RunUntil(io_, [&] { return probe.has_value(); }));
  const std::optional<Seconds> slurm_after = SlurmPredictedWait();
  ASSERT_TRUE(slurm_before.has_value() && slurm_after.has_value());
  ASSERT_TRUE(probe->ok()) << probe->status().ToString();
  const Seconds mean = (waits[0].started - waits[0].submitted +
                        waits[1].started - waits[1].submitted) /
                       2;
  const WaitEstimate past =
      later.queue_waits().FromHistory(BatchJobShape(o.host.batch));
  EXPECT_EQ(past.basis, WaitBasis::kHistoryBySize);
  EXPECT_EQ(past.samples, 2);
  EXPECT_NEAR(past.seconds, mean, 1e-6);
  // Slurm's own estimate (`sbatch --test-only` at Connect) beats the
  // history.
  EXPECT_EQ((*probe)->queue_wait_basis, "slurm estimate");
  EXPECT_GE((*probe)->queue_wait, std::min(*slurm_before, *slurm_after) - 3);
  EXPECT_LE((*probe)->queue_wait, std::max(*slurm_before, *slurm_after) + 3);
}

TEST_F(SlurmAdapterTest, CommandsRunOnALoginHostThroughVia) {
  testing::SshdTestbed bed(1);
  const std::string error = bed.Start();
  ASSERT_EQ(error, "");
  const SshTarget target = bed.Target(1);
  HostConfig login;
  login.name = "login";
  login.adapters = {AdapterKind::kSsh};
  login.address = target.address;
  login.port = target.port;
  login.identity = target.identity;
  login.known_hosts = target.known_hosts;
  // No batch command on this machine's PATH: they must run over ssh.
  const std::string saved = std::getenv("PATH");
  ::setenv("PATH", dir_.path().c_str(), 1);
  JobId id = 1;
  for (BatchMode mode : {BatchMode::kJob, BatchMode::kPilot}) {
    BatchAdapterOptions o = Options("behind", mode);
    o.host.batch.via = "login";
    o.login = login;
    o.host.env = {{"SLURM_CONF", std::getenv("SLURM_CONF")}};
    auto adapter = MakeBatchAdapter(io_, clock_, o);
    Status s = adapter->Connect();
    ASSERT_TRUE(s.ok()) << s.ToString();
    reports_.Submit(*adapter,
                    Job(id, "add", {Scalar("2"), Scalar("3"), OutScalar()}));
    ASSERT_TRUE(WaitFor(id));
    ASSERT_NE(AsExited(reports_.Get(id)), nullptr)
        << OutcomeName(reports_.Get(id));
    EXPECT_EQ(AsExited(reports_.Get(id))->results, "5\n");
    adapter->Shutdown();
    ++id;
  }
  // A relative workdir cannot be shared: said at connect.
  BatchAdapterOptions o = Options("behind", BatchMode::kJob);
  o.host.batch.via = "login";
  o.login = login;
  o.host.workdir = ".gsrt/hosts/behind";
  Status s = MakeBatchAdapter(io_, clock_, o)->Connect();
  ::setenv("PATH", saved.c_str(), 1);
  bed.Stop();
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("absolute directory"));
}

}  // namespace
}  // namespace gs
