// The agent's logic, in-process: a MemoryStream pair, a scripted runner
// and a fake clock; the test plays the master frame by frame.
#include "adapters/agent/agent.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "adapters/agent/agent_test_util.h"
#include "tests/support/fake_clock.h"
#include "tests/support/run_until.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_files.h"

namespace gs {
namespace {

using namespace agent;  // NOLINT: message names
using testing::FrameEnd;
using ::testing::HasSubstr;
using testing::ScriptedRunner;

class AgentTest : public ::testing::Test {
 protected:
  AgentTest()
      : root_(std::filesystem::canonical(dir_.path()).string()), runner_(io_) {
    auto [master, agent] = MemoryStream::Pair(io_);
    master_ = std::make_unique<FrameEnd>(std::move(master));
    agent_stream_ = std::move(agent);
  }

  void StartAgent(Seconds heartbeat = 0, bool outlive_master = false) {
    AgentOptions options;
    options.outlive_master = outlive_master;
    options.work_dir = root_;
    options.slots = 3;
    options.heartbeat = heartbeat;
    options.facts.host_name = "node-7";
    options.facts.cores = 8;
    options.facts.memory_total = 1 << 30;
    options.messages = &log_;
    agent_ = std::make_unique<Agent>(*agent_stream_, runner_, clock_, options);
    agent_->Start([this](Status s) { exit_ = s; },
                  [this](Status s) { detached_ = s; });
  }

  void Greet() {
    StartAgent();
    master_->Send(Hello());
    ASSERT_TRUE(Until([&] { return master_->Count<Hello>() == 1; }));
  }

  template <typename Pred>
  bool Until(Pred p) {
    return RunUntil(io_, p, std::chrono::seconds(10));
  }

  Error LastError() {
    auto errors = master_->All<Error>();
    return errors.empty() ? Error{} : errors.back();
  }

  TempDir dir_;
  std::string root_;
  boost::asio::io_context io_;
  FakeClock clock_{1000};
  ScriptedRunner runner_;
  std::unique_ptr<FrameEnd> master_;
  std::unique_ptr<MemoryStream> agent_stream_;
  RecordingMessages log_;  // before the agent, which says things to it
  std::unique_ptr<Agent> agent_;
  std::optional<Status> exit_;
  std::optional<Status> detached_;
};

TEST_F(AgentTest, HelloTellsTheHostFacts) {
  Greet();
  const Hello h = master_->All<Hello>()[0];
  EXPECT_TRUE(CheckHello(h, "agent").ok());
  EXPECT_EQ(h.software, std::string("gsrt-agent ") + AgentSoftwareVersion());
  EXPECT_EQ(h.host_name, "node-7");
  EXPECT_EQ(h.work_dir, root_);
  EXPECT_EQ(h.slots, 3u);
  EXPECT_EQ(h.cores, 8u);
  EXPECT_GT(h.pid, 0u);
  EXPECT_FALSE(exit_.has_value());
}

TEST_F(AgentTest, OtherMajorVersionIsRefusedClearly) {
  StartAgent();
  Hello old;
  old.major = kProtocolMajor + 1;
  old.software = "gsrt 9.0.0";
  master_->Send(old);
  ASSERT_TRUE(Until([&] { return exit_.has_value(); }));
  EXPECT_EQ(exit_->code(), Status::Code::kFailedPrecondition);
  ASSERT_TRUE(Until([&] { return master_->Count<Error>() == 1; }));
  EXPECT_EQ(LastError().request, 0u);
  EXPECT_THAT(LastError().message, HasSubstr("gsrt 9.0.0"));
  EXPECT_THAT(LastError().message, HasSubstr("install the same gsrt version"));
  EXPECT_EQ(master_->Count<Hello>(), 0u);
}

TEST_F(AgentTest, FramesBeforeHelloAreAProtocolError) {
  StartAgent();
  master_->Send(Heartbeat{1});
  ASSERT_TRUE(Until([&] { return exit_.has_value(); }));
  EXPECT_THAT(exit_->message(), HasSubstr("HEARTBEAT before HELLO"));
  EXPECT_EQ(runner_.shutdowns, 1);
}

TEST_F(AgentTest, GarbageIsAProtocolError) {
  StartAgent();
  master_->SendRaw("GET / HTTP/1.1\r\n\r\n");
  ASSERT_TRUE(Until([&] { return exit_.has_value(); }));
  EXPECT_EQ(exit_->code(), Status::Code::kInvalidArgument);
  ASSERT_TRUE(Until([&] { return master_->Count<Error>() == 1; }));
  EXPECT_THAT(LastError().message, HasSubstr("GET / HTTP"));
}

TEST_F(AgentTest, RunnerThatCannotStartIsToldAtHello) {
  runner_.connect_status =
      Status::InvalidArgument("work dir 'x' is not absolute");
  StartAgent();
  master_->Send(Hello());
  ASSERT_TRUE(Until([&] { return master_->Count<Error>() == 1; }));
  EXPECT_THAT(LastError().message, HasSubstr("gsrt-agent on node-7"));
  EXPECT_THAT(LastError().message, HasSubstr("work dir 'x' is not absolute"));
  EXPECT_TRUE(exit_.has_value());
}

TEST_F(AgentTest, RunsJobsAndReportsThem) {
  Greet();
  JobSpec spec;
  spec.id = 5;
  spec.operation = "op";
  spec.worker = "/w";
  master_->Send(RunJob{spec});
  ASSERT_TRUE(Until([&] { return runner_.submitted.size() == 1; }));
  EXPECT_EQ(runner_.submitted[0].operation, "op");
  EXPECT_EQ(agent_->running(), 1);

  master_->Send(Heartbeat{77});
  ASSERT_TRUE(Until([&] { return master_->Count<HeartbeatAck>() == 1; }));
  EXPECT_EQ(master_->All<HeartbeatAck>()[0].seq, 77u);
  EXPECT_EQ(master_->All<HeartbeatAck>()[0].running, 1u);

  Exited e;
  e.code = 0;
  e.results = "42\n";
  runner_.Finish(5, e);
  ASSERT_TRUE(Until([&] { return master_->Count<JobFinished>() == 1; }));
  const JobReport r = master_->All<JobFinished>()[0].report;
  EXPECT_EQ(r.id, 5u);
  ASSERT_NE(std::get_if<Exited>(&r.outcome), nullptr);
  EXPECT_EQ(std::get<Exited>(r.outcome).results, "42\n");
  EXPECT_EQ(r.started, 101);
  EXPECT_EQ(agent_->running(), 0);
}

TEST_F(AgentTest, CancelReachesTheRunner) {
  Greet();
  JobSpec spec;
  spec.id = 6;
  master_->Send(RunJob{spec});
  master_->Send(Cancel{6});
  ASSERT_TRUE(Until([&] { return master_->Count<JobFinished>() == 1; }));
  EXPECT_EQ(runner_.cancelled, std::vector<JobId>{6});
  EXPECT_TRUE(std::holds_alternative<Cancelled>(
      master_->All<JobFinished>()[0].report.outcome));
}

TEST_F(AgentTest, SameJobTwiceIsAProtocolError) {
  Greet();
  JobSpec spec;
  spec.id = 8;
  master_->Send(RunJob{spec});
  master_->Send(RunJob{spec});
  ASSERT_TRUE(Until([&] { return exit_.has_value(); }));
  EXPECT_THAT(exit_->message(), HasSubstr("job 8 was sent twice"));
  EXPECT_EQ(runner_.holding(), 0u);  // killed by the runner's shutdown
}

TEST_F(AgentTest, PutWritesTheFileOnlyWhenComplete) {
  Greet();
  master_->Send(PutBegin{1, "in dir/a b.txt", 11});
  master_->Send(PutChunk{1, "hello "});
  ASSERT_TRUE(Until([&] { return Exists(root_ + "/in dir"); }));
  RunReady(io_);
  EXPECT_FALSE(Exists(root_ + "/in dir/a b.txt"));
  master_->Send(PutChunk{1, "world"});
  master_->Send(PutEnd{1, 11, ContentHash::Of("hello world")});
  ASSERT_TRUE(Until([&] { return master_->Count<PutDone>() == 1; }));
  EXPECT_EQ(master_->All<PutDone>()[0].id, 1u);
  EXPECT_EQ(ReadText(root_ + "/in dir/a b.txt"), "hello world");
}

TEST_F(AgentTest, CorruptPutIsRefusedAndLeavesNothing) {
  Greet();
  master_->Send(PutBegin{2, "x", 3});
  master_->Send(PutChunk{2, "abc"});
  master_->Send(PutEnd{2, 3, ContentHash::Of("abd")});
  ASSERT_TRUE(Until([&] { return master_->Count<Error>() == 1; }));
  EXPECT_EQ(LastError().request, 2u);
  EXPECT_THAT(LastError().message, HasSubstr("hash does not match"));
  EXPECT_TRUE(std::filesystem::is_empty(root_));
  EXPECT_FALSE(exit_.has_value());  // a failed transfer is not fatal
}

TEST_F(AgentTest, PutOfMoreThanAnnouncedIsRefused) {
  Greet();
  master_->Send(PutBegin{3, "y", 2});
  master_->Send(PutChunk{3, "abc"});
  master_->Send(PutEnd{3, 3, ContentHash::Of("abc")});
  ASSERT_TRUE(Until([&] { return master_->Count<Error>() == 1; }));
  EXPECT_THAT(LastError().message, HasSubstr("more than the announced"));
  RunReady(io_);
  EXPECT_EQ(master_->Count<Error>(), 1u);  // the end of a failed put is ignored
  EXPECT_TRUE(std::filesystem::is_empty(root_));
}

TEST_F(AgentTest, StagingOutsideTheWorkDirIsRefused) {
  Greet();
  TempDir outside;
  master_->Send(PutBegin{4, "../escape", 1});
  master_->Send(PutChunk{4, "x"});
  master_->Send(PutEnd{4, 1, ContentHash::Of("x")});
  master_->Send(PutBegin{5, outside / "abs", 1});
  master_->Send(GetRequest{6, "/etc/passwd"});
  master_->Send(Remove{outside / "keep"});
  WriteText(outside / "keep", "k");
  ASSERT_TRUE(Until([&] { return master_->Count<Error>() == 3; }));
  for (const Error& e : master_->All<Error>()) {
    EXPECT_EQ(e.code, Status::Code::kPermissionDenied) << e.message;
  }
  EXPECT_EQ(master_->Count<PutDone>(), 0u);
  EXPECT_EQ(master_->Count<GetChunk>(), 0u);
  EXPECT_FALSE(Exists(dir_.path() + "/../escape"));
  EXPECT_FALSE(Exists(outside / "abs"));
  EXPECT_TRUE(Exists(outside / "keep"));
  EXPECT_TRUE(log_.Has(MessageKind::kWarning, "gsrt-agent: REMOVE refused"))
      << log_.AllText();
}

TEST_F(AgentTest, GetSendsTheFile) {
  Greet();
  std::string data(700 << 10, 'q');
  data[12345] = 'z';
  WriteText(root_ + "/out.bin", data);
  master_->Send(GetRequest{7, "out.bin"});
  ASSERT_TRUE(Until([&] {
    clock_.Advance(0.01);  // lets the flow-controlled pump look again
    return master_->Count<GetEnd>() == 1;
  }));
  std::string got;
  for (const GetChunk& c : master_->All<GetChunk>()) got += c.data;
  EXPECT_EQ(got, data);
  EXPECT_EQ(master_->All<GetEnd>()[0].hash, ContentHash::Of(data));
}

TEST_F(AgentTest, GetWithATailSendsOnlyTheFilesEnd) {
  Greet();
  std::string data(300 << 10, 'a');
  data += "the end";
  WriteText(root_ + "/log", data);
  WriteText(root_ + "/short", "short");
  master_->Send(GetRequest{9, "log", 100});
  master_->Send(GetRequest{10, "short", 100});
  ASSERT_TRUE(Until([&] {
    clock_.Advance(0.01);
    return master_->Count<GetEnd>() == 2;
  }));
  std::string tail, whole;
  for (const GetChunk& c : master_->All<GetChunk>()) {
    (c.id == 9 ? tail : whole) += c.data;
  }
  EXPECT_EQ(tail, data.substr(data.size() - 100));
  EXPECT_EQ(whole, "short");
  for (const GetEnd& e : master_->All<GetEnd>()) {
    EXPECT_EQ(e.size, e.id == 9 ? 100u : 5u);
  }
}

TEST_F(AgentTest, GetOfAMissingFileIsNotFound) {
  Greet();
  master_->Send(GetRequest{8, "nothing-here"});
  ASSERT_TRUE(Until([&] { return master_->Count<Error>() == 1; }));
  EXPECT_EQ(LastError().code, Status::Code::kNotFound);
  EXPECT_THAT(LastError().message, HasSubstr("nothing-here"));
}

TEST_F(AgentTest, RemoveDeletesInsideTheWorkDir) {
  Greet();
  WriteText(root_ + "/old", "x");
  master_->Send(Remove{"old"});
  master_->Send(Remove{"never-existed"});  // not an error
  ASSERT_TRUE(Until([&] { return !Exists(root_ + "/old"); }));
  master_->Send(Heartbeat{1});
  ASSERT_TRUE(Until([&] { return master_->Count<HeartbeatAck>() == 1; }));
  EXPECT_EQ(master_->Count<Error>(), 0u);
}

TEST_F(AgentTest, SweepClearsWhatEarlierAgentsLeft) {
  Greet();
  std::filesystem::create_directories(root_ + "/jobs/41");
  std::filesystem::create_directories(root_ + "/data");
  WriteText(root_ + "/jobs/41/out", "a killed job's partial output");
  WriteText(root_ + "/data/1-a", "kept");
  WriteText(root_ + "/data/2-b", "dropped");
  WriteText(root_ + "/data/3-c.gsrt-part-77-1", "half received");
  master_->Send(Sweep{"m:/p/.gsrt", {"1-a"}});
  master_->Send(Heartbeat{1});
  ASSERT_TRUE(Until([&] { return master_->Count<HeartbeatAck>() == 1; }));
  EXPECT_FALSE(Exists(root_ + "/jobs/41"));
  EXPECT_FALSE(Exists(root_ + "/data/2-b"));
  EXPECT_FALSE(Exists(root_ + "/data/3-c.gsrt-part-77-1"));
  EXPECT_EQ(ReadText(root_ + "/data/1-a"), "kept");
  EXPECT_TRUE(
      log_.Has(MessageKind::kInfo, "2 entries of data/, 1 job sandboxes\n"))
      << log_.AllText();
  EXPECT_EQ(master_->Count<Error>(), 0u);
}

TEST_F(AgentTest, SweepIsRefusedWhileTheAgentHasJobsOrAnotherOwner) {
  Greet();
  std::filesystem::create_directories(root_ + "/data");
  WriteText(root_ + "/data/2-b", "a copy");
  JobSpec spec;
  spec.id = 12;
  master_->Send(RunJob{spec});
  master_->Send(Sweep{"m:/p/.gsrt", {}});
  master_->Send(Heartbeat{1});
  ASSERT_TRUE(Until([&] { return master_->Count<HeartbeatAck>() == 1; }));
  EXPECT_TRUE(Exists(root_ + "/data/2-b"));
  EXPECT_TRUE(log_.Has(MessageKind::kWarning, "gsrt-agent: SWEEP refused"))
      << log_.AllText();
  runner_.Finish(12, Exited{});
  ASSERT_TRUE(Until([&] { return master_->Count<JobFinished>() == 1; }));
  WriteText(root_ + "/owner", "other:/q/.gsrt\n");
  master_->Send(Sweep{"m:/p/.gsrt", {}});
  master_->Send(Heartbeat{2});
  ASSERT_TRUE(Until([&] { return master_->Count<HeartbeatAck>() == 2; }));
  EXPECT_TRUE(Exists(root_ + "/data/2-b"));
  EXPECT_TRUE(log_.Has(MessageKind::kWarning,
                       "belongs to the master of other:/q/.gsrt"))
      << log_.AllText();
  EXPECT_FALSE(exit_.has_value()) << "a refused sweep ends nothing";
}

TEST_F(AgentTest, MasterErrorAbortsAnUpload) {
  Greet();
  master_->Send(PutBegin{9, "part", 10});
  master_->Send(PutChunk{9, "12345"});
  ASSERT_TRUE(Until([&] { return !std::filesystem::is_empty(root_); }));
  master_->Send(Error{9, Status::Code::kIoError, "source vanished"});
  ASSERT_TRUE(Until([&] { return std::filesystem::is_empty(root_); }));
  EXPECT_FALSE(exit_.has_value());
}

TEST_F(AgentTest, ShutdownKillsJobsAndEnds) {
  Greet();
  JobSpec spec;
  spec.id = 10;
  master_->Send(RunJob{spec});
  master_->Send(Shutdown{});
  ASSERT_TRUE(Until([&] { return exit_.has_value(); }));
  EXPECT_TRUE(exit_->ok());
  EXPECT_EQ(runner_.shutdowns, 1);
  EXPECT_EQ(runner_.holding(), 0u);
}

TEST_F(AgentTest, EndOfTheStreamEndsTheAgent) {
  Greet();
  JobSpec spec;
  spec.id = 11;
  master_->Send(RunJob{spec});
  ASSERT_TRUE(Until([&] { return runner_.holding() == 1; }));
  master_->stream().Close();
  ASSERT_TRUE(Until([&] { return exit_.has_value(); }));
  EXPECT_TRUE(exit_->ok());
  EXPECT_EQ(runner_.holding(), 0u);
}

TEST_F(AgentTest, BrokenStreamIsAnError) {
  Greet();
  master_->stream().Break(Status::Unavailable("cable cut"));
  ASSERT_TRUE(Until([&] { return exit_.has_value(); }));
  EXPECT_THAT(exit_->message(), HasSubstr("cable cut"));
}

TEST_F(AgentTest, SilentMasterIsTakenForLost) {
  StartAgent(/*heartbeat=*/1);
  master_->Send(Hello());
  ASSERT_TRUE(Until([&] { return master_->Count<Hello>() == 1; }));
  clock_.Advance(2.5);
  master_->Send(Heartbeat{1});  // heard at 1002.5
  ASSERT_TRUE(Until([&] { return master_->Count<HeartbeatAck>() == 1; }));
  clock_.Advance(2.9);
  EXPECT_FALSE(exit_.has_value());
  clock_.Advance(1.2);
  ASSERT_TRUE(exit_.has_value());
  EXPECT_EQ(exit_->code(), Status::Code::kUnavailable);
  EXPECT_THAT(exit_->message(), HasSubstr("nothing from the master"));
}

TEST_F(AgentTest, DestroyedAgentIgnoresLateRunnerReports) {
  Greet();
  JobSpec spec;
  spec.id = 12;
  master_->Send(RunJob{spec});
  ASSERT_TRUE(Until([&] { return runner_.holding() == 1; }));
  agent_.reset();  // shuts the runner down; its reports go nowhere
  EXPECT_EQ(runner_.holding(), 0u);
  RunReady(io_);
}

}  // namespace
}  // namespace gs

namespace gs {
namespace {

// A pilot's agent outlives its master: the job goes on, its report is held
// and handed to the next master after its HELLO, which lists it.
TEST_F(AgentTest, AnAgentThatOutlivesItsMasterHandsItsJobsToTheNext) {
  StartAgent(/*heartbeat=*/0, /*outlive_master=*/true);
  master_->Send(Hello());
  ASSERT_TRUE(Until([&] { return master_->Count<Hello>() == 1; }));
  JobSpec spec;
  spec.id = 5;
  spec.worker = "/w";
  master_->Send(RunJob{spec});
  spec.id = 6;
  master_->Send(RunJob{spec});
  spec.id = 4;
  master_->Send(RunJob{spec});
  ASSERT_TRUE(Until([&] { return runner_.submitted.size() == 3; }));
  Exited four;
  four.results = "4\n";
  runner_.Finish(4, four);  // told to this master, which may not keep it
  ASSERT_TRUE(Until([&] { return master_->Count<JobFinished>() == 1; }));

  master_->stream().Break(Status::Unavailable("master killed"));
  ASSERT_TRUE(Until([&] { return detached_.has_value(); }));
  EXPECT_FALSE(exit_.has_value());
  EXPECT_EQ(runner_.shutdowns, 0);  // the jobs go on
  EXPECT_TRUE(agent_->detached());
  Exited e;
  e.code = 0;
  e.results = "7\n";
  runner_.Finish(5, e);  // ends while no master listens

  auto [next_master, next_agent] = MemoryStream::Pair(io_);
  FrameEnd next(std::move(next_master));
  agent_->Reattach(*next_agent);
  next.Send(Hello());
  ASSERT_TRUE(Until([&] { return next.Count<JobFinished>() == 2; }));
  const Hello h = next.All<Hello>()[0];
  EXPECT_THAT(h.held_jobs, ::testing::UnorderedElementsAre(4u, 5u, 6u));
  const JobReport resent = next.All<JobFinished>()[0].report;
  EXPECT_EQ(resent.id, 4u);
  EXPECT_EQ(std::get<Exited>(resent.outcome).results, "4\n");
  const JobReport held = next.All<JobFinished>()[1].report;
  EXPECT_EQ(held.id, 5u);
  EXPECT_EQ(std::get<Exited>(held.outcome).results, "7\n");
  runner_.Finish(6, e);  // the running one reports to the new master
  ASSERT_TRUE(Until([&] { return next.Count<JobFinished>() == 3; }));
  EXPECT_EQ(next.All<JobFinished>()[2].report.id, 6u);
  EXPECT_EQ(master_->Count<JobFinished>(), 1u);
  next.Send(Shutdown{});
  ASSERT_TRUE(Until([&] { return exit_.has_value(); }));
  EXPECT_TRUE(exit_->ok());
}

// Without outlive_master (ssh agents) a lost master still ends the agent
// and its jobs.
TEST_F(AgentTest, AnAgentThatDoesNotOutliveItsMasterEndsWithIt) {
  Greet();
  JobSpec spec;
  spec.id = 5;
  master_->Send(RunJob{spec});
  ASSERT_TRUE(Until([&] { return runner_.submitted.size() == 1; }));
  master_->stream().Break(Status::Unavailable("master killed"));
  ASSERT_TRUE(Until([&] { return exit_.has_value(); }));
  EXPECT_FALSE(detached_.has_value());
  EXPECT_EQ(runner_.shutdowns, 1);
}

}  // namespace
}  // namespace gs
