// The master's AgentAdapter against in-process agents (the real Agent
// logic with a scripted runner, or hand-written misbehaving peers) over
// MemoryStream pairs, on a fake clock: handshakes, job reports, losses,
// heartbeats and staging, deterministically.
#include "adapters/agent/agent_adapter.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "adapters/agent/agent.h"
#include "adapters/agent/agent_test_util.h"
#include "adapters/agent/fetched_logs.h"
#include "tests/support/fake_clock.h"
#include "tests/support/report_collector.h"
#include "tests/support/run_until.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_files.h"

namespace gs {
namespace {

using ::testing::HasSubstr;
using testing::ScriptedRunner;

// One agent the factory started.
struct Remote {
  explicit Remote(boost::asio::io_context& io) : runner(io) {}
  std::unique_ptr<MemoryStream> stream;  // the agent's end
  MemoryStream* master_end = nullptr;    // owned by the adapter
  ScriptedRunner runner;
  std::unique_ptr<Agent> agent;
  std::optional<Status> exit;
};

class AgentAdapterTest : public ::testing::Test {
 protected:
  AgentAdapterTest() : root_(std::filesystem::canonical(dir_.path()).string()) {
    std::filesystem::create_directory(root_ + "/host");
    MakeAdapter();
  }

  void MakeAdapter(std::string fetch_logs_to = "") {
    AgentAdapterOptions options;
    options.fetch_logs_to = std::move(fetch_logs_to);
    options.host_name = "node-7";
    options.connect_timeout = 10;
    options.heartbeat_interval = 1;
    options.heartbeat_timeout = 3;
    options.pump.poll = 0.001;
    adapter_ = std::make_unique<AgentAdapter>(
        io_, clock_, [this] { return NewStream(); }, options);
  }

  StatusOr<std::unique_ptr<ByteStream>> NewStream() {
    if (!factory_error_.ok()) return factory_error_;
    auto [master, agent] = MemoryStream::Pair(io_);
    auto remote = std::make_unique<Remote>(io_);
    remote->stream = std::move(agent);
    remote->master_end = master.get();
    if (peer_) {
      peer_(*remote);
    } else {
      AgentOptions options;
      options.work_dir = root_ + "/host";
      options.slots = 3;
      options.facts.host_name = "node-7";
      options.messages = &agent_log_;
      remote->runner.connect_status = runner_status_;
      remote->agent = std::make_unique<Agent>(*remote->stream, remote->runner,
                                              clock_, options);
      Remote* r = remote.get();
      remote->agent->Start([r](Status s) { r->exit = s; });
    }
    remotes_.push_back(std::move(remote));
    return std::unique_ptr<ByteStream>(std::move(master));
  }

  Remote& remote() { return *remotes_.back(); }

  template <typename Pred>
  bool Until(Pred p) {
    return RunUntil(io_, p, std::chrono::seconds(10));
  }

  // Moves the fake clock in small steps, delivering messages in between.
  void Pass(Seconds total, Seconds step = 0.1) {
    for (Seconds t = 0; t < total; t += step) {
      RunReady(io_);
      clock_.Advance(step);
    }
    RunReady(io_);
  }

  JobSpec Job(JobId id) {
    JobSpec spec;
    spec.id = id;
    spec.operation = "op";
    spec.worker = "/bin/worker";
    return spec;
  }

  TempDir dir_;
  std::string root_;
  boost::asio::io_context io_;
  FakeClock clock_{5000};
  Status factory_error_;
  Status runner_status_;
  std::function<void(Remote&)> peer_;  // replaces the real agent
  RecordingMessages agent_log_;        // the remote agents' (not asserted)
  std::vector<std::unique_ptr<Remote>> remotes_;
  std::unique_ptr<AgentAdapter> adapter_;
  ReportCollector reports_;
};

TEST_F(AgentAdapterTest, ConnectLearnsTheHost) {
  EXPECT_EQ(adapter_->FreeSlots(), 0);
  ASSERT_TRUE(adapter_->Connect().ok());
  EXPECT_TRUE(adapter_->connected());
  EXPECT_EQ(adapter_->kind(), "agent");
  EXPECT_EQ(adapter_->FreeSlots(), 3);
  EXPECT_EQ(adapter_->work_dir(), root_ + "/host");
  EXPECT_EQ(adapter_->agent_hello().host_name, "node-7");
  EXPECT_FALSE(adapter_->shares_master_files());
  EXPECT_TRUE(adapter_->Connect().ok());  // already connected: no new agent
  EXPECT_EQ(remotes_.size(), 1u);
}

TEST_F(AgentAdapterTest, RunsJobsWithTimesOnTheMastersClock) {
  ASSERT_TRUE(adapter_->Connect().ok());
  reports_.Submit(*adapter_, Job(1));
  EXPECT_EQ(adapter_->FreeSlots(), 2);
  ASSERT_TRUE(Until([&] { return remote().runner.submitted.size() == 1; }));
  EXPECT_EQ(remote().runner.submitted[0].worker, "/bin/worker");
  Pass(10, 0.5);  // heartbeats answered on the way
  Exited e;
  e.results = "7\n";
  remote().runner.Finish(1, e);  // agent times 100/101/103
  ASSERT_TRUE(Until([&] { return reports_.Has(1); }));
  const JobReport& r = reports_.Get(1);
  ASSERT_NE(AsExited(r), nullptr);
  EXPECT_EQ(AsExited(r)->results, "7\n");
  EXPECT_EQ(r.submitted, 5000);
  EXPECT_EQ(r.ended, 5010);
  EXPECT_EQ(r.started, 5008);  // the agent's 2 s run, anchored at our now
  EXPECT_EQ(adapter_->FreeSlots(), 3);
  EXPECT_EQ(reports_.inside_submit(), 0);
}

TEST_F(AgentAdapterTest, CancelReachesTheAgent) {
  ASSERT_TRUE(adapter_->Connect().ok());
  reports_.Submit(*adapter_, Job(2));
  adapter_->Cancel(2);
  adapter_->Cancel(99);  // unknown: ignored
  ASSERT_TRUE(Until([&] { return reports_.Has(2); }));
  EXPECT_TRUE(std::holds_alternative<Cancelled>(reports_.Get(2).outcome));
  EXPECT_EQ(remote().runner.cancelled, std::vector<JobId>{2});
}

TEST_F(AgentAdapterTest, LostStreamFailsEachOutstandingJobOnce) {
  ASSERT_TRUE(adapter_->Connect().ok());
  for (JobId id : {10, 11, 12}) reports_.Submit(*adapter_, Job(id));
  ASSERT_TRUE(Until([&] { return remote().runner.submitted.size() == 3; }));
  remote().runner.Finish(10, Exited{});
  remote().stream->Break(Status::Unavailable("cable cut"));
  ASSERT_TRUE(Until([&] { return reports_.size() == 3; }));
  Pass(1);
  EXPECT_EQ(reports_.Duplicates(), "");
  EXPECT_NE(AsExited(reports_.Get(10)), nullptr);
  for (JobId id : {11, 12}) {
    const auto* f = std::get_if<HostFailed>(&reports_.Get(id).outcome);
    ASSERT_NE(f, nullptr) << OutcomeName(reports_.Get(id));
    EXPECT_THAT(f->reason, HasSubstr("node-7"));
    EXPECT_THAT(f->reason, HasSubstr("cable cut"));
  }
  EXPECT_FALSE(adapter_->connected());
  EXPECT_EQ(adapter_->FreeSlots(), 0);
  EXPECT_THAT(adapter_->lost_reason(), HasSubstr("cable cut"));

  // Not usable until reconnected; the failure comes later, not inside.
  reports_.Submit(*adapter_, Job(13));
  EXPECT_FALSE(reports_.Has(13));
  ASSERT_TRUE(Until([&] { return reports_.Has(13); }));
  EXPECT_TRUE(std::holds_alternative<HostFailed>(reports_.Get(13).outcome));

  ASSERT_TRUE(adapter_->Connect().ok());
  EXPECT_EQ(remotes_.size(), 2u);
  EXPECT_EQ(adapter_->FreeSlots(), 3);
  reports_.Submit(*adapter_, Job(14));
  ASSERT_TRUE(Until([&] { return remote().runner.submitted.size() == 1; }));
  remote().runner.Finish(14, Exited{});
  ASSERT_TRUE(Until([&] { return reports_.Has(14); }));
  EXPECT_EQ(reports_.inside_submit(), 0);
}

TEST_F(AgentAdapterTest, AgentThatEndsIsALostHost) {
  ASSERT_TRUE(adapter_->Connect().ok());
  reports_.Submit(*adapter_, Job(20));
  ASSERT_TRUE(Until([&] { return remote().runner.holding() == 1; }));
  remote().stream->Close();  // an orderly close, but jobs were running
  ASSERT_TRUE(Until([&] { return reports_.Has(20); }));
  const auto* f = std::get_if<HostFailed>(&reports_.Get(20).outcome);
  ASSERT_NE(f, nullptr);
  EXPECT_THAT(f->reason, HasSubstr("closed the connection"));
}

TEST_F(AgentAdapterTest, AnsweredHeartbeatsKeepTheConnection) {
  ASSERT_TRUE(adapter_->Connect().ok());
  Pass(20);
  EXPECT_TRUE(adapter_->connected());
}

TEST_F(AgentAdapterTest, SilentAgentIsLostAfterTheHeartbeatTimeout) {
  ASSERT_TRUE(adapter_->Connect().ok());
  for (JobId id : {30, 31}) reports_.Submit(*adapter_, Job(id));
  Pass(0.5);
  remote().stream->Stall(true);  // the agent hangs: nothing comes back
  Pass(2.5);
  EXPECT_TRUE(adapter_->connected());
  EXPECT_EQ(reports_.size(), 0u);
  Pass(2);
  ASSERT_EQ(reports_.size(), 2u);
  for (JobId id : {30, 31}) {
    const auto* f = std::get_if<HostFailed>(&reports_.Get(id).outcome);
    ASSERT_NE(f, nullptr);
    EXPECT_THAT(f->reason, HasSubstr("heartbeat timeout 3 s"));
  }
  remote().stream->Stall(false);  // late answers change nothing
  Pass(1);
  EXPECT_EQ(reports_.Duplicates(), "");
  EXPECT_EQ(adapter_->FreeSlots(), 0);
}

TEST_F(AgentAdapterTest, HandshakeTimesOut) {
  peer_ = [](Remote&) {};  // never answers
  std::optional<Status> result;
  adapter_->ConnectAsync([&](Status s) { result = s; });
  Pass(9.5);
  EXPECT_FALSE(result.has_value());
  Pass(1);
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(result->code(), Status::Code::kTimedOut);
  EXPECT_THAT(result->message(), HasSubstr("did not answer the handshake"));
}

TEST_F(AgentAdapterTest, OtherProtocolVersionIsRefused) {
  peer_ = [](Remote& r) {
    r.stream->Start([](std::string_view) {}, [](Status) {});
    agent::Hello h;
    h.major = agent::kProtocolMajor + 1;
    h.software = "gsrt-agent 7.0.0";
    r.stream->Write(agent::Encode(h));
  };
  Status s = adapter_->Connect();
  EXPECT_EQ(s.code(), Status::Code::kFailedPrecondition);
  EXPECT_THAT(s.message(), HasSubstr("gsrt-agent 7.0.0"));
  EXPECT_THAT(s.message(),
              HasSubstr("speaks agent protocol " +
                        std::to_string(agent::kProtocolMajor + 1) + "." +
                        std::to_string(agent::Hello{}.minor)));
  EXPECT_EQ(adapter_->FreeSlots(), 0);
}

TEST_F(AgentAdapterTest, LoginBannerIsExplained) {
  peer_ = [](Remote& r) {
    r.stream->Start([](std::string_view) {}, [](Status) {});
    r.stream->Write("Welcome to node-7, have a nice day\n");
  };
  Status s = adapter_->Connect();
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("not the gsrt agent protocol"));
  EXPECT_THAT(s.message(), HasSubstr("Welcome to node-7"));
  EXPECT_THAT(s.message(), HasSubstr("login banner"));
}

TEST_F(AgentAdapterTest, AgentRefusalIsTheConnectError) {
  runner_status_ = Status::InvalidArgument("cannot create '/ro/jobs'");
  Status s = adapter_->Connect();
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("cannot create '/ro/jobs'"));
}

TEST_F(AgentAdapterTest, FactoryFailureIsTheConnectError) {
  factory_error_ = Status::Unavailable("no route to host");
  Status s = adapter_->Connect();
  EXPECT_THAT(s.message(), HasSubstr("cannot start the agent"));
  EXPECT_THAT(s.message(), HasSubstr("no route to host"));
}

TEST_F(AgentAdapterTest, FramesOnlyTheMasterSendsBreakTheConnection) {
  ASSERT_TRUE(adapter_->Connect().ok());
  reports_.Submit(*adapter_, Job(40));
  remote().stream->Write(agent::Encode(agent::RunJob{Job(1)}));
  ASSERT_TRUE(Until([&] { return reports_.Has(40); }));
  const auto* f = std::get_if<HostFailed>(&reports_.Get(40).outcome);
  ASSERT_NE(f, nullptr);
  EXPECT_THAT(f->reason, HasSubstr("RUN_JOB"));
}

TEST_F(AgentAdapterTest, ShutdownCancelsEverythingBeforeReturning) {
  ASSERT_TRUE(adapter_->Connect().ok());
  for (JobId id : {50, 51}) reports_.Submit(*adapter_, Job(id));
  ASSERT_TRUE(Until([&] { return remote().runner.holding() == 2; }));
  adapter_->Shutdown();
  ASSERT_EQ(reports_.size(), 2u);
  for (JobId id : {50, 51}) {
    EXPECT_TRUE(std::holds_alternative<Cancelled>(reports_.Get(id).outcome));
  }
  EXPECT_EQ(adapter_->FreeSlots(), 0);
  ASSERT_TRUE(Until([&] { return remote().exit.has_value(); }));
  EXPECT_TRUE(remote().exit->ok());  // the agent got SHUTDOWN
  EXPECT_EQ(remote().runner.holding(), 0u);
  Pass(1);
  EXPECT_EQ(reports_.Duplicates(), "");
}

TEST_F(AgentAdapterTest, DuplicateJobIdIsReportedNotSent) {
  ASSERT_TRUE(adapter_->Connect().ok());
  adapter_->Submit(Job(60), [](JobReport) {});
  std::optional<JobReport> dup;
  adapter_->Submit(Job(60), [&](JobReport r) { dup = r; });
  ASSERT_TRUE(Until([&] { return dup.has_value(); }));
  ASSERT_NE(AsExited(*dup), nullptr);
  EXPECT_THAT(AsExited(*dup)->error, HasSubstr("already running"));
  EXPECT_EQ(remote().runner.submitted.size(), 1u);
}

class AgentAdapterStagingTest : public AgentAdapterTest {
 protected:
  Status Await(std::function<void(Adapter::StatusCallback)> start) {
    std::optional<Status> result;
    start([&](Status s) { result = s; });
    EXPECT_FALSE(result.has_value()) << "done ran inside the call";
    for (int i = 0; i < 100000 && !result; ++i) {
      RunReady(io_);
      clock_.Advance(0.001);
    }
    EXPECT_TRUE(result.has_value());
    return result.value_or(Status::Internal("no answer"));
  }
};

TEST_F(AgentAdapterStagingTest, PutAndGetRoundTrip) {
  ASSERT_TRUE(adapter_->Connect().ok());
  std::mt19937 rng(9);
  std::string data(3 << 20, '\0');
  for (char& c : data) c = static_cast<char>(rng());
  WriteText(dir_ / "source file", data);
  Status put = Await([&](auto done) {
    adapter_->Put(dir_ / "source file", "staged/a b.bin", done);
  });
  ASSERT_TRUE(put.ok()) << put.ToString();
  EXPECT_EQ(ReadText(root_ + "/host/staged/a b.bin"), data);
  Status get = Await([&](auto done) {
    adapter_->Get(root_ + "/host/staged/a b.bin", dir_ / "back/copy", done);
  });
  ASSERT_TRUE(get.ok()) << get.ToString();
  EXPECT_EQ(ReadText(dir_ / "back/copy"), data);

  adapter_->Remove("staged/a b.bin");
  ASSERT_TRUE(Until([&] { return !Exists(root_ + "/host/staged/a b.bin"); }));
}

TEST_F(AgentAdapterStagingTest, RefusalsComeBackAsStatuses) {
  ASSERT_TRUE(adapter_->Connect().ok());
  WriteText(dir_ / "f", "x");
  Status outside =
      Await([&](auto done) { adapter_->Put(dir_ / "f", "../../f", done); });
  EXPECT_EQ(outside.code(), Status::Code::kPermissionDenied);
  EXPECT_THAT(outside.message(), HasSubstr("put '"));
  EXPECT_THAT(outside.message(), HasSubstr("node-7"));
  Status missing =
      Await([&](auto done) { adapter_->Get("no-such", dir_ / "never", done); });
  EXPECT_EQ(missing.code(), Status::Code::kNotFound);
  EXPECT_FALSE(Exists(dir_ / "never"));
  Status unreadable =
      Await([&](auto done) { adapter_->Put(dir_ / "absent", "x", done); });
  EXPECT_THAT(unreadable.message(), HasSubstr("cannot read the file"));
  EXPECT_TRUE(adapter_->connected());  // none of this is fatal
}

TEST_F(AgentAdapterStagingTest, TransfersFailWhenTheConnectionIsLost) {
  ASSERT_TRUE(adapter_->Connect().ok());
  WriteText(dir_ / "f", std::string(2 << 20, 'z'));
  std::optional<Status> put;
  adapter_->Put(dir_ / "f", "f", [&](Status s) { put = s; });
  remote().stream->Break(Status::Unavailable("gone"));
  ASSERT_TRUE(Until([&] { return put.has_value(); }));
  EXPECT_EQ(put->code(), Status::Code::kUnavailable);
  Status after =
      Await([&](auto done) { adapter_->Get("f", dir_ / "g", done); });
  EXPECT_THAT(after.message(), HasSubstr("not connected"));
}

}  // namespace
}  // namespace gs

namespace gs {
namespace {

// A pilot's agent outlived its master: the next master's adapter learns
// from HELLO which jobs the agent holds, takes them over under its own job
// ids (a report that came before, and one that comes later), and cancels
// the one it does not want.
TEST_F(AgentAdapterTest, HeldJobsOfAnEarlierMasterAreTakenOverUnderNewIds) {
  peer_ = [this](Remote& r) {
    AgentOptions options;
    options.work_dir = root_ + "/host";
    options.slots = 3;
    options.facts.host_name = "node-7";
    options.outlive_master = true;
    options.messages = &agent_log_;
    r.agent = std::make_unique<Agent>(*r.stream, r.runner, clock_, options);
    Remote* remote = &r;
    r.agent->Start([remote](Status s) { remote->exit = s; }, [](Status) {});
  };
  ASSERT_TRUE(adapter_->Connect().ok());
  for (JobId id : {5, 6, 7}) reports_.Submit(*adapter_, Job(id));
  Remote& first = remote();
  ASSERT_TRUE(Until([&] { return first.runner.submitted.size() == 3; }));
  // The master dies: its adapter goes without a SHUTDOWN reaching the
  // agent.
  first.master_end->Break(Status::Unavailable("master killed"));
  ASSERT_TRUE(Until([&] { return first.agent->detached(); }));
  Exited e;
  e.results = "5\n";
  first.runner.Finish(5, e);

  // The next master: a new adapter on a new stream to the same agent.
  auto [master, agent_end] = MemoryStream::Pair(io_);
  std::unique_ptr<MemoryStream> held_end = std::move(agent_end);
  std::unique_ptr<ByteStream> master_stream = std::move(master);
  AgentAdapterOptions options;
  options.host_name = "node-7";
  options.heartbeat_interval = 0;
  AgentAdapter next(
      io_, clock_,
      [&]() -> StatusOr<std::unique_ptr<ByteStream>> {
        first.agent->Reattach(*held_end);
        return std::move(master_stream);
      },
      options);
  ASSERT_TRUE(next.Connect().ok());
  // 5's report follows the HELLO; 6 and 7 still run there.
  ASSERT_TRUE(Until([&] { return next.FreeSlots() == 1; }));
  EXPECT_THAT(next.held_jobs(), ::testing::UnorderedElementsAre(5u, 6u, 7u));
  EXPECT_FALSE(next.Holds(8));

  ReportCollector taken;
  next.AdoptHeld(5, Job(105), taken.Callback());
  next.AdoptHeld(6, Job(106), taken.Callback());
  next.DropHeld(7);
  ASSERT_TRUE(Until([&] { return taken.Has(105); }));
  EXPECT_EQ(AsExited(taken.Get(105))->results, "5\n");
  ASSERT_TRUE(Until([&] {
    return std::count(first.runner.cancelled.begin(),
                      first.runner.cancelled.end(), 7u) == 1;
  }));
  e.results = "6\n";
  first.runner.Finish(6, e);
  ASSERT_TRUE(Until([&] { return taken.Has(106); }));
  EXPECT_EQ(AsExited(taken.Get(106))->results, "6\n");
  EXPECT_FALSE(taken.Has(6));
  EXPECT_TRUE(next.held_jobs().empty());
  EXPECT_EQ(next.FreeSlots(), 3);
  EXPECT_EQ(taken.Duplicates(), "");
  next.Shutdown();
}

// A job that failed on a host without the master's files: its logs' ends
// come to the master's failed/<host>/ before its report, which names them
// there and says where they came from.
TEST_F(AgentAdapterTest, FailedJobsLogsAreFetchedBeforeItsReport) {
  MakeAdapter(root_ + "/master/failed");
  ASSERT_TRUE(adapter_->Connect().ok());
  const std::string there = root_ + "/host/failed/s1/task-1-op-job-30";
  std::filesystem::create_directories(there);
  std::string err(kFetchedLogBytes + 10, 'e');
  err.replace(0, 5, "first");
  err.replace(err.size() - 4, 4, "last");
  WriteText(there + "/stderr", err);
  WriteText(there + "/stdout", "said little");
  reports_.Submit(*adapter_, Job(30));
  ASSERT_TRUE(Until([&] { return remote().runner.submitted.size() == 1; }));
  Exited e;
  e.code = 1;
  e.error = "exit code 1";
  e.log_dir = there;
  remote().runner.Finish(30, e);
  ASSERT_TRUE(Until([&] {
    clock_.Advance(0.001);  // lets the agent's pump look again
    return reports_.Has(30);
  }));
  const Exited* got = AsExited(reports_.Get(30));
  ASSERT_NE(got, nullptr);
  const std::string here = root_ + "/master/failed/node-7/s1/task-1-op-job-30";
  EXPECT_EQ(got->log_dir, here);
  EXPECT_EQ(got->log_note, "fetched from host 'node-7': " + there +
                               "; stderr cut to its last 64 KiB");
  EXPECT_EQ(ReadAll(here + "/stdout"), "said little");
  const std::string kept = ReadAll(here + "/stderr");
  EXPECT_EQ(kept, err.substr(err.size() - kFetchedLogBytes));
  EXPECT_EQ(kept.substr(kept.size() - 4), "last");
  EXPECT_EQ(got->error, "exit code 1");
  EXPECT_EQ(reports_.Duplicates(), "");
}

// A hand-written agent of protocol 2.`minor` whose job fails and which
// breaks the connection when asked for a file.
void FailingPeer(Remote& r, uint16_t minor) {
  MemoryStream* stream = r.stream.get();
  auto decoder = std::make_shared<agent::FrameDecoder>();
  stream->Start(
      [stream, decoder](std::string_view bytes) {
        decoder->Append(bytes);
        while (true) {
          auto next = decoder->Next();
          if (!next.ok() || !next->has_value()) return;
          const agent::Message& m = **next;
          if (const auto* run = std::get_if<agent::RunJob>(&m)) {
            JobReport report;
            report.id = run->spec.id;
            Exited failed;
            failed.code = 1;
            failed.error = "exit code 1";
            failed.log_dir = "/w/failed/s/task-1-op-job-60";
            report.outcome = failed;
            stream->Write(agent::Encode(agent::JobFinished{report}));
          } else if (std::holds_alternative<agent::GetRequest>(m)) {
            return stream->Break(Status::Unavailable("cable cut"));
          }
        }
      },
      [](Status) {});
  agent::Hello h;
  h.minor = minor;
  h.software = "gsrt-agent test";
  h.work_dir = "/w";
  h.slots = 2;
  stream->Write(agent::Encode(h));
}

TEST_F(AgentAdapterTest, LogsOfAHostLostMeanwhileStayThereNamed) {
  MakeAdapter(root_ + "/master/failed");
  peer_ = [](Remote& r) { FailingPeer(r, agent::kProtocolMinor); };
  ASSERT_TRUE(adapter_->Connect().ok());
  reports_.Submit(*adapter_, Job(60));
  ASSERT_TRUE(Until([&] { return reports_.Has(60); }));
  const Exited* got = AsExited(reports_.Get(60));
  ASSERT_NE(got, nullptr);
  EXPECT_EQ(got->log_dir, "/w/failed/s/task-1-op-job-60");
  EXPECT_THAT(got->log_note,
              HasSubstr("still on host 'node-7', which was unreachable: not "
                        "fetched ("));
  EXPECT_THAT(got->log_note, HasSubstr("cable cut"));
  EXPECT_EQ(reports_.Duplicates(), "");
}

TEST_F(AgentAdapterTest, AnOlderAgentsLogsAreNotFetched) {
  MakeAdapter(root_ + "/master/failed");
  peer_ = [](Remote& r) { FailingPeer(r, 3); };
  ASSERT_TRUE(adapter_->Connect().ok());
  reports_.Submit(*adapter_, Job(61));
  ASSERT_TRUE(Until([&] { return reports_.Has(61); }));
  const Exited* got = AsExited(reports_.Get(61));
  ASSERT_NE(got, nullptr);
  EXPECT_EQ(got->log_dir, "/w/failed/s/task-1-op-job-60");
  EXPECT_EQ(got->log_note,
            "still on host 'node-7': not fetched (its agent speaks protocol "
            "2.3, which cannot send only the end of a log)");
  EXPECT_TRUE(adapter_->connected());
}

TEST_F(AgentAdapterTest, NothingIsFetchedFromAHostThatSharesTheFiles) {
  ASSERT_TRUE(adapter_->Connect().ok());  // no fetch_logs_to
  reports_.Submit(*adapter_, Job(62));
  ASSERT_TRUE(Until([&] { return remote().runner.submitted.size() == 1; }));
  Exited e;
  e.code = 2;
  e.log_dir = root_ + "/host/failed/s/x";
  remote().runner.Finish(62, e);
  ASSERT_TRUE(Until([&] { return reports_.Has(62); }));
  EXPECT_EQ(AsExited(reports_.Get(62))->log_dir, root_ + "/host/failed/s/x");
  EXPECT_EQ(AsExited(reports_.Get(62))->log_note, "");
}

}  // namespace
}  // namespace gs
