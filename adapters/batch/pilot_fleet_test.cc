#include "adapters/batch/pilot_fleet.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "adapters/batch/node/pilot_auth.h"
#include "adapters/batch/pilot_record.h"
#include "adapters/batch/pilot_token_file.h"
#include "runtime/base/shell_quote.h"
#include "tests/support/fake_clock.h"
#include "tests/support/temp_dir.h"

namespace gs {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// Slurm's commands answered from memory: sbatch queues a job PENDING,
// squeue lists by name, scancel takes jobs off the listing (a cancelled
// job stays listed for `linger` more listings, as one the queue is still
// starting does).
class FakeQueue {
 public:
  CommandRunner runner() {
    return [this](const std::vector<std::string>& argv, Seconds) {
      ProgramOutput out;
      out.exit_code = 0;
      const std::string& program = argv[0];
      if (program == "sbatch") {
        const std::string id = std::to_string(next_id_++);
        jobs_[id] = {Arg(argv, "--job-name="), "PENDING", -1};
        out.out = id + "\n";
      } else if (program == "squeue") {
        ++listings_;
        const std::string name = Arg(argv, "--name=");
        for (auto& [id, job] : jobs_) {
          if (job.name != name || job.listings_left == 0) continue;
          if (job.listings_left > 0) --job.listings_left;
          out.out += id + " " + job.state + "\n";
        }
      } else if (program == "scancel") {
        for (size_t i = 1; i < argv.size(); ++i) {
          cancelled_.push_back(argv[i]);
          if (jobs_.count(argv[i])) jobs_[argv[i]].listings_left = linger_;
        }
      }
      return StatusOr<ProgramOutput>(out);
    };
  }
  // A job known to the queue (a dead master's, say).
  void Add(const std::string& id, const std::string& name,
           const std::string& state) {
    jobs_[id] = {name, state, -1};
  }
  // The job ended on its own: no longer listed.
  void End(const std::string& id) { jobs_[id].listings_left = 0; }
  void set_linger(int listings) { linger_ = listings; }
  const std::vector<std::string>& cancelled() const { return cancelled_; }
  int submitted() const { return next_id_ - 1; }

 private:
  struct Job {
    std::string name;
    std::string state;
    int listings_left;  // -1: listed until cancelled
  };
  static std::string Arg(const std::vector<std::string>& argv,
                         const std::string& prefix) {
    for (const std::string& a : argv) {
      if (a.starts_with(prefix)) return a.substr(prefix.size());
    }
    return "";
  }

  std::map<std::string, Job> jobs_;
  std::vector<std::string> cancelled_;
  int next_id_ = 1;
  int linger_ = 0;
  int listings_ = 0;
};

class PilotFleetTest : public ::testing::Test {
 protected:
  PilotFleetTest()
      : commands_("h", MakeSlurmSystem(), BatchConfig(), ""), waits_("", {}) {
    commands_.set_runner(queue_.runner());
    options_.host.name = "h";
    options_.host.adapters = {AdapterKind::kSlurm};
    options_.host.slots = 4;
    options_.host.workdir = dir_ / "work";
    options_.host.shared_fs = true;
    options_.host.batch.mode = BatchMode::kPilot;
    options_.agent_program = "/nonexistent/gsrt-agent";
    options_.poll_interval = 1;
    // Connect gives up at once: no pilot ever connects here.
    options_.pilot_start_timeout = 0;
    fs::create_directories(pilots());
  }

  std::unique_ptr<PilotFleet> Fleet() {
    PilotFleetSetup setup;
    setup.io = &io_;
    setup.clock = &clock_;
    setup.options = &options_;
    setup.commands = &commands_;
    setup.waits = &waits_;
    setup.kind = "slurm";
    setup.queued = [this](QueuedJob job) { queued_.push_back(job); };
    setup.unsent_cores = [] { return 0; };
    auto fleet = std::make_unique<PilotFleet>(std::move(setup));
    fleet->set_messages(&said_);
    return fleet;
  }

  std::string pilots() const { return dir_ / "work/pilots"; }
  bool Has(const std::string& file) const {
    return fs::exists(pilots() + "/" + file);
  }

  TempDir dir_;
  boost::asio::io_context io_;
  FakeClock clock_;
  FakeQueue queue_;
  BatchCommands commands_;
  QueueWaitLog waits_;
  BatchAdapterOptions options_;
  RecordingMessages said_;
  std::vector<QueuedJob> queued_;
};

TEST_F(PilotFleetTest, ConnectSubmitsThePilotsAndSaysWhyNoneServes) {
  options_.host.batch.pilots = 2;
  auto fleet = Fleet();
  ASSERT_TRUE(fleet->Prepare().ok());
  Status s = fleet->Connect();
  EXPECT_EQ(s.code(), Status::Code::kUnavailable);
  EXPECT_THAT(s.message(), HasSubstr("host 'h': no pilot job connected back "
                                     "within 0 s (pilot job 2 is still "
                                     "queued)"));
  EXPECT_EQ(queue_.submitted(), 2);
  EXPECT_THAT(fleet->PilotJobIds(), ElementsAre("1", "2"));
  EXPECT_FALSE(fleet->connected());
  EXPECT_EQ(fleet->FreeCores(), 0);
  EXPECT_EQ(fleet->ReadyPilot(), nullptr);
  // Each pilot: a script sharing `slots`, a record, a queued job for the
  // engine to record.
  for (const char* f : {"h-p0.sh", "h-p0.id", "h-p1.sh", "h-p1.id"}) {
    EXPECT_TRUE(Has(f)) << f;
  }
  std::ifstream script(pilots() + "/h-p0.sh");
  std::string text((std::istreambuf_iterator<char>(script)), {});
  EXPECT_THAT(text, HasSubstr("--slots 2"));
  ASSERT_EQ(queued_.size(), 2u);
  EXPECT_EQ(queued_[0].batch_id, "1");
  EXPECT_EQ(queued_[0].name, fleet->job_name());
  EXPECT_EQ(queued_[0].dir, pilots());
}

TEST_F(PilotFleetTest, APilotThatLeftTheQueueUnconnectedIsRetiredAndReplaced) {
  auto fleet = Fleet();
  ASSERT_TRUE(fleet->Prepare().ok());
  (void)fleet->Connect();
  ASSERT_THAT(fleet->PilotJobIds(), ElementsAre("1"));
  std::ofstream(pilots() + "/h-p0.out") << "agent: no such file\n";
  queue_.End("1");
  clock_.Advance(1);  // missed once: the queue may be slow to list it
  EXPECT_THAT(fleet->PilotJobIds(), ElementsAre("1"));
  clock_.Advance(1);
  EXPECT_TRUE(said_.Has(MessageKind::kHostEvent,
                        "gsrt: host 'h': pilot h-p0 (batch job 1) retired: "
                        "pilot job 1 ended before connecting back (its "
                        "output: agent: no such file)\n"))
      << said_.AllText();
  EXPECT_THAT(queue_.cancelled(), ElementsAre("1"));
  // The floor is kept: a new pilot in its place.
  EXPECT_THAT(fleet->PilotJobIds(), ElementsAre("2"));
}

TEST_F(PilotFleetTest, AQueuedPilotsFilesGoOnceItLeftTheQueue) {
  auto fleet = Fleet();
  ASSERT_TRUE(fleet->Prepare().ok());
  (void)fleet->Connect();
  queue_.set_linger(2);  // still listed twice after the cancel
  fleet->Shutdown();
  EXPECT_THAT(queue_.cancelled(), ElementsAre("1"));
  EXPECT_THAT(fleet->PilotJobIds(), IsEmpty());
  // The token file goes at once; the pilot's files wait, on a timer.
  for (const auto& e : fs::directory_iterator(pilots())) {
    EXPECT_FALSE(e.path().filename().string().starts_with("token."));
  }
  EXPECT_TRUE(Has("h-p0.sh"));
  clock_.Advance(0.1);
  EXPECT_TRUE(Has("h-p0.sh"));
  clock_.Advance(0.1);
  EXPECT_FALSE(Has("h-p0.sh"));
  EXPECT_FALSE(Has("h-p0.id"));
  EXPECT_EQ(clock_.pending(), 0u);
}

TEST_F(PilotFleetTest, TheWaitForTheQueueIsBounded) {
  auto fleet = Fleet();
  ASSERT_TRUE(fleet->Prepare().ok());
  (void)fleet->Connect();
  queue_.set_linger(1000);
  fleet->Shutdown();
  clock_.Advance(2.8);
  EXPECT_TRUE(Has("h-p0.sh"));
  clock_.Advance(0.4);
  EXPECT_FALSE(Has("h-p0.sh"));
}

TEST_F(PilotFleetTest, ADeadMastersQueuedPilotIsTakenOver) {
  options_.host.batch.pilot_reattach = 30;
  // The dead master: a token file named by a process that is gone, and its
  // pilot's script and record.
  const pid_t dead = ::fork();
  ASSERT_GE(dead, 0);
  if (dead == 0) ::_exit(0);
  ::waitpid(dead, nullptr, 0);
  char host[256] = {};
  ASSERT_EQ(::gethostname(host, sizeof host - 1), 0);
  const std::string token_file =
      pilots() + "/" + PilotTokenFileName(host, dead);
  ASSERT_TRUE(
      WritePilotRendezvous(token_file, {"old-token", "127.0.0.1:1"}).ok());
  std::ofstream(pilots() + "/h-p0.sh")
      << "#!/bin/sh\nexec gsrt-agent --token-file " << ShellQuote(token_file)
      << "\n";
  ASSERT_TRUE(
      WritePilotRecord(pilots(), {"h-p0", "77", "gsrt-pilot-h-old"}).ok());
  queue_.Add("77", "gsrt-pilot-h-old", "PENDING");

  auto fleet = Fleet();
  ASSERT_TRUE(fleet->Prepare().ok());
  EXPECT_TRUE(said_.Has(MessageKind::kHostEvent,
                        "gsrt: host 'h': pilot h-p0 (batch job 77) of an "
                        "interrupted master is still queued: taken over, it "
                        "serves this run when it starts\n"))
      << said_.AllText();
  ASSERT_EQ(queued_.size(), 1u);
  EXPECT_EQ(queued_[0].batch_id, "77");
  EXPECT_TRUE(queued_[0].adopted);
  // It is the pilot the floor asks for: none is submitted.
  Status s = fleet->Connect();
  EXPECT_THAT(s.message(), HasSubstr("(pilot job 77 is still queued)"));
  EXPECT_EQ(queue_.submitted(), 0);
  EXPECT_THAT(fleet->PilotJobIds(), ElementsAre("77"));
  fleet->Shutdown();
  EXPECT_FALSE(fs::exists(token_file));  // taken over, then removed
}

TEST_F(PilotFleetTest, AfterShutdownNothingStarts) {
  auto fleet = Fleet();
  ASSERT_TRUE(fleet->Prepare().ok());
  fleet->Shutdown();
  EXPECT_TRUE(fleet->shut_down());
  EXPECT_EQ(fleet->Connect().code(), Status::Code::kFailedPrecondition);
  fleet->NoteBacklog(10);
  io_.poll();
  EXPECT_EQ(queue_.submitted(), 0);
}

}  // namespace
}  // namespace gs
