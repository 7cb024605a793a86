#include "runtime/engine/dispatcher.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "runtime/sched/policies_ft.h"
#include "tests/support/fake_clock.h"
#include "tests/support/recording_adapter.h"

namespace gs {
namespace {

using testing::RecordingAdapter;

class FakeSite : public Dispatcher::Site {
 public:
  explicit FakeSite(std::vector<TaskId>* due) : due_(*due) {}
  void RetryDue(TaskId task) override { due_.push_back(task); }

 private:
  std::vector<TaskId>& due_;
};

gs_operation Operation(const char* name, int cores = 1) {
  gs_operation op{};
  op.name = name;
  op.computing_units = cores;
  return op;
}

// One host with `slots` free slots; tasks writing files of their own, so
// every task is ready when added.
class DispatcherTest : public ::testing::Test {
 protected:
  DispatcherTest() {
    dispatcher_ =
        std::make_unique<Dispatcher>(replication_, graph_, ops_, hosts_, jobs_,
                                     data_, std::make_unique<FakeSite>(&due_));
  }

  RecordingAdapter* AddHost(const std::string& name, int slots) {
    auto adapter = std::make_unique<RecordingAdapter>();
    adapter->answers.connected = true;
    adapter->answers.free_slots = slots;
    RecordingAdapter* raw = adapter.get();
    auto entry = std::make_unique<HostEntry>();
    entry->name = name;
    entry->cores = slots;
    entry->adapter = std::move(adapter);
    data_.AddHost(false);
    hosts_.Add(std::move(entry));
    names_.push_back(name);
    return raw;
  }

  void Start() {
    hosts_.set_clock(&clock_);
    dispatcher_->StartPredicting(&clock_, nullptr, names_);
  }

  // A task of `op` writing its own file; ready.
  TaskId AddTask(const gs_operation* op) {
    const OpId id = ops_.Intern(op);
    EXPECT_TRUE(dispatcher_->Admit(id).ok());
    const std::string name = "out" + std::to_string(graph_.num_tasks());
    FileParam out{name, false, true};
    TaskId t = graph_.AddTask(id, &out, 1, "");
    dispatcher_->AddReady(t);
    return t;
  }

  // One round; each booking runs as the engine's would (a job out, the
  // task running), so that a later pass of the round sees it.
  std::vector<Dispatcher::Booking> Round() {
    std::vector<Dispatcher::Booking> booked;
    dispatcher_->Round([&](const Dispatcher::Booking& b) {
      booked.push_back(b);
      graph_.task(b.task).state = TaskState::kRunning;
      JobEntry entry{b.task,    b.host, b.predicted_end, clock_.Now(), 1,
                     b.replica, {},     Need{}};
      if (!b.gang.empty()) {  // a gang holds its share on every node
        entry.need = dispatcher_->scheduler().NeedOf(graph_.task(b.task).op);
        entry.gang_hosts = b.gang;
      }
      jobs_.Add(next_job_++, std::move(entry));
    });
    return booked;
  }

  FakeClock clock_{100};
  FileTable files_{"/work"};
  TaskGraph graph_{&files_};
  OperationTable ops_;
  HostSet hosts_{/*rtt_bound=*/1};
  JobTable jobs_;
  DataPlaces data_{"/work/gsrt", files_, graph_, hosts_};
  ReplicationConfig replication_;
  std::vector<TaskId> due_;
  std::vector<std::string> names_;
  JobId next_job_ = 1;
  std::unique_ptr<Dispatcher> dispatcher_;
};

TEST_F(DispatcherTest, ARoundBooksWhatFitsAndTellsHostsTheBacklog) {
  RecordingAdapter* host = AddHost("n1", 2);
  Start();
  gs_operation op = Operation("work");
  for (int i = 0; i < 3; ++i) AddTask(&op);
  std::vector<Dispatcher::Booking> booked = Round();
  ASSERT_EQ(booked.size(), 2u);
  EXPECT_EQ(booked[0].host, 0u);
  EXPECT_FALSE(booked[0].replica);
  EXPECT_EQ(booked[0].implementation, nullptr);
  EXPECT_EQ(dispatcher_->scheduler().num_ready(), 1u);
  EXPECT_NE(std::find(host->calls.begin(), host->calls.end(), "NoteBacklog 1"),
            host->calls.end());
}

TEST_F(DispatcherTest, TheBacklogIsToldOnlyWhenItStartsStopsDoublesOrHalves) {
  RecordingAdapter* host = AddHost("n1", 0);
  Start();
  gs_operation op = Operation("work");
  AddTask(&op);
  Round();  // 1: starts
  AddTask(&op);
  Round();  // 2: doubles
  AddTask(&op);
  Round();  // 3: no news
  size_t told = std::count_if(
      host->calls.begin(), host->calls.end(),
      [](const std::string& c) { return c.rfind("NoteBacklog", 0) == 0; });
  EXPECT_EQ(told, 2u);
}

TEST_F(DispatcherTest, AnOperationNoHostCanHoldIsRefusedNamingTheHosts) {
  AddHost("small", 2);
  Start();
  gs_operation big = Operation("big", 8);
  const OpId id = ops_.Intern(&big);
  Status s = dispatcher_->Admit(id);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("'big' needs 8 cores"), std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("small has 2 cores"), std::string::npos)
      << s.message();
  EXPECT_EQ(dispatcher_->Admit(id).message(), s.message()) << "remembered";
}

// runtime.hosts: a kept operation's tasks wait for their hosts while the
// others fill every host.
TEST_F(DispatcherTest, AKeptOperationIsBookedOnlyOnItsHosts) {
  AddHost("n1", 2);
  AddHost("gpu1", 1);
  Start();
  dispatcher_->KeepTo(
      PlacementMasks({{"train", {"gpu"}}},
                     std::vector<HostLabels>{{"n1", {}}, {"gpu1", {"gpu"}}}));
  gs_operation train = Operation("train");
  gs_operation work = Operation("work");
  for (int i = 0; i < 3; ++i) AddTask(&train);
  for (int i = 0; i < 2; ++i) AddTask(&work);
  std::vector<Dispatcher::Booking> booked = Round();
  int trains = 0;
  for (const auto& b : booked) {
    if (graph_.task(b.task).op == ops_.Intern(&train)) {
      ++trains;
      EXPECT_EQ(b.host, 1u) << "train went to n1";
    }
  }
  EXPECT_EQ(trains, 1) << "gpu1 has one slot";
  EXPECT_EQ(booked.size(), 3u) << "the two work tasks fill n1";
}

TEST_F(DispatcherTest, AKeptOperationNoHostCarriesIsRefusedNamingThem) {
  AddHost("n1", 2);
  Start();
  dispatcher_->KeepTo(PlacementMasks({{"train", {"gpu", "bigmem"}}},
                                     std::vector<HostLabels>{{"n1", {}}}));
  gs_operation train = Operation("train");
  Status s = dispatcher_->Admit(ops_.Intern(&train));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("'train' may run only on hosts labelled gpu, "
                             "bigmem (runtime.hosts in gsrt.yaml), and none "
                             "of this run's hosts (n1) carries one"),
            std::string::npos)
      << s.message();
}

// @MPI over several nodes: only hosts whose queue allocates several nodes
// to one job take it, whole (its cores on each node, all at once).
TEST_F(DispatcherTest, AnMpiJobOverNodesGoesWholeToAHostThatSpansNodes) {
  AddHost("local", 8);
  AddHost("cluster", 6);
  Start();
  dispatcher_->SpanNodesOn({false, true});
  gs_operation mpi = Operation("mpi", 2);
  mpi.nodes = 2;
  gs_operation work = Operation("work");
  AddTask(&mpi);
  AddTask(&mpi);
  AddTask(&work);
  const Need need = dispatcher_->scheduler().NeedOf(ops_.Intern(&mpi));
  EXPECT_EQ(need.cores, 4) << "2 cores on each of 2 nodes";
  std::vector<Dispatcher::Booking> booked = Round();
  int mpis = 0;
  for (const auto& b : booked) {
    if (graph_.task(b.task).op != ops_.Intern(&mpi)) continue;
    ++mpis;
    EXPECT_EQ(b.host, 1u) << "an MPI job over nodes went to a single host";
  }
  EXPECT_EQ(mpis, 1) << "the second does not fit in what is left (2 of 6)";
}

TEST_F(DispatcherTest, AnMpiJobOverNodesWithoutSuchAHostIsRefused) {
  AddHost("local", 8);
  Start();
  gs_operation mpi = Operation("mpi", 2);
  mpi.nodes = 2;
  Status s = dispatcher_->Admit(ops_.Intern(&mpi));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("'mpi' is an MPI job over 2 nodes"),
            std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("add a slurm or pbs host in job mode"),
            std::string::npos)
      << s.message();
  // One node: any host with the cores.
  gs_operation one = Operation("one", 4);
  one.nodes = 1;
  EXPECT_TRUE(dispatcher_->Admit(ops_.Intern(&one)).ok());
}

// Inside an allocation each node is a host: gsrt places the job on a gang
// of them, all at once or not at all (gang_choice.h).
TEST_F(DispatcherTest, AnMpiJobOverNodesTakesAWholeGangOfAllocationNodes) {
  AddHost("local", 8);
  AddHost("alloc-n1", 2)->answers.last_heard = -1;
  AddHost("alloc-n2", 2)->answers.last_heard = -1;
  AddHost("alloc-n3", 2)->answers.last_heard = -1;
  Start();
  dispatcher_->GangsOn({{}, {"alloc", "n1"}, {"alloc", "n2"}, {"alloc", "n3"}});
  gs_operation mpi = Operation("mpi", 2);
  mpi.nodes = 2;
  const TaskId first = AddTask(&mpi);
  const TaskId second = AddTask(&mpi);
  EXPECT_EQ(dispatcher_->scheduler().NeedOf(ops_.Intern(&mpi)).cores, 2)
      << "each node's share";
  EXPECT_EQ(dispatcher_->GangNodes(ops_.Intern(&mpi)), 2);
  std::vector<Dispatcher::Booking> booked = Round();
  ASSERT_EQ(booked.size(), 1u) << "the second gang fits only half: it waits";
  EXPECT_EQ(booked[0].task, first);
  ASSERT_EQ(booked[0].gang.size(), 1u);
  std::vector<HostId> gang = {booked[0].host, booked[0].gang[0]};
  std::sort(gang.begin(), gang.end());
  EXPECT_TRUE(gang[0] >= 1 && gang[0] != gang[1]) << "never on local";
  EXPECT_TRUE(Round().empty()) << "still no whole gang for the second";
  EXPECT_EQ(graph_.task(second).state, TaskState::kReady);
  // The first ends: its nodes are free again, the second takes two.
  JobEntry done;
  std::vector<JobId> others;
  ASSERT_TRUE(jobs_.Take(1, &done, &others));
  EXPECT_TRUE(jobs_.gang_holds().empty());
  booked = Round();
  ASSERT_EQ(booked.size(), 1u);
  EXPECT_EQ(booked[0].task, second);
  EXPECT_EQ(booked[0].gang.size(), 1u);
}

TEST_F(DispatcherTest, AWaitingGangKeepsSmallJobsOffTheNodesItWaitsFor) {
  AddHost("alloc-n1", 2)->answers.last_heard = -1;
  AddHost("alloc-n2", 2)->answers.last_heard = -1;
  AddHost("alloc-n3", 2)->answers.last_heard = -1;
  Start();
  dispatcher_->GangsOn({{"alloc", "n1"}, {"alloc", "n2"}, {"alloc", "n3"}});
  gs_operation mpi = Operation("mpi", 2);
  mpi.nodes = 2;
  gs_operation work = Operation("work");
  AddTask(&mpi);
  AddTask(&mpi);
  ASSERT_EQ(Round().size(), 1u);
  // The second gang waits for the first's nodes; the node left free is
  // one of those it waits for: a one-core job does not take it (it would
  // again each time a core freed, and the gang would never start).
  const TaskId small = AddTask(&work);
  EXPECT_TRUE(Round().empty()) << "took a core the waiting gang needs";
  EXPECT_EQ(graph_.task(small).state, TaskState::kReady);
  // The first gang ends: the second starts before the small job.
  JobEntry done;
  std::vector<JobId> others;
  ASSERT_TRUE(jobs_.Take(1, &done, &others));
  std::vector<Dispatcher::Booking> booked = Round();
  ASSERT_FALSE(booked.empty());
  EXPECT_EQ(graph_.task(booked[0].task).op, ops_.Intern(&mpi));
}

TEST_F(DispatcherTest, ASuspectNodeGetsNoGang) {
  AddHost("alloc-n1", 2)->answers.last_heard = -1;
  AddHost("alloc-n2", 4);  // silent for 87.5 s of its 3 s heartbeat
  AddHost("alloc-n3", 2)->answers.last_heard = -1;
  Start();
  dispatcher_->GangsOn({{"alloc", "n1"}, {"alloc", "n2"}, {"alloc", "n3"}});
  gs_operation mpi = Operation("mpi", 2);
  mpi.nodes = 2;
  AddTask(&mpi);
  std::vector<Dispatcher::Booking> booked = Round();
  ASSERT_EQ(booked.size(), 1u);
  ASSERT_EQ(booked[0].gang.size(), 1u);
  EXPECT_NE(booked[0].host, 1u);
  EXPECT_NE(booked[0].gang[0], 1u) << "the freest, but suspect";
}

TEST_F(DispatcherTest, AGangNoAllocationCanHoldIsRefusedSayingWhatToDo) {
  AddHost("alloc-n1", 2);
  AddHost("alloc-n2", 1);
  Start();
  dispatcher_->GangsOn({{"alloc", "n1"}, {"alloc", "n2"}});
  gs_operation mpi = Operation("mpi", 2);
  mpi.nodes = 2;
  Status s = dispatcher_->Admit(ops_.Intern(&mpi));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("over 2 nodes of 2 cores each"), std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("`mode: allocation`"), std::string::npos)
      << s.message();
}

TEST_F(DispatcherTest, ARestrictionEveryHostMeetsKeepsTheNeedSimple) {
  AddHost("n1", 2);
  Start();
  dispatcher_->KeepTo(
      PlacementMasks({{"work", {"n1"}}}, std::vector<HostLabels>{{"n1", {}}}));
  gs_operation work = Operation("work");
  const OpId id = ops_.Intern(&work);
  ASSERT_TRUE(dispatcher_->Admit(id).ok());
  EXPECT_TRUE(dispatcher_->scheduler().NeedOf(id).simple());
}

TEST_F(DispatcherTest, ARetryWaitsForItsBackoffThenIsReadyAgain) {
  AddHost("n1", 1);
  Start();
  gs_operation op = Operation("work");
  TaskId t = AddTask(&op);
  ASSERT_EQ(Round().size(), 1u);
  dispatcher_->RetryLater(t, 5);
  EXPECT_EQ(graph_.task(t).state, TaskState::kWaiting);
  EXPECT_EQ(dispatcher_->pending_retries(), 1u);
  clock_.Advance(4);
  EXPECT_TRUE(due_.empty());
  clock_.Advance(1);
  ASSERT_EQ(due_, std::vector<TaskId>{t});
  EXPECT_TRUE(dispatcher_->RetryEnded(t, /*stopping=*/false));
  EXPECT_EQ(graph_.task(t).state, TaskState::kReady);
  EXPECT_EQ(dispatcher_->scheduler().num_ready(), 1u);
  EXPECT_EQ(dispatcher_->pending_retries(), 0u);
}

TEST_F(DispatcherTest, ARetryRequeuedMeanwhileOrWhileStoppingIsNotQueuedTwice) {
  AddHost("n1", 1);
  Start();
  gs_operation op = Operation("work");
  TaskId t = AddTask(&op);
  TaskId u = AddTask(&op);
  Round();
  dispatcher_->RetryLater(t, 5);
  dispatcher_->RetryLater(u, 5);
  dispatcher_->Requeue(t);  // a rewind put it back
  const size_t ready = dispatcher_->scheduler().num_ready();
  clock_.Advance(5);
  EXPECT_FALSE(dispatcher_->RetryEnded(t, /*stopping=*/false));
  EXPECT_FALSE(dispatcher_->RetryEnded(u, /*stopping=*/true));
  EXPECT_EQ(dispatcher_->scheduler().num_ready(), ready);
}

TEST_F(DispatcherTest, ARetryWithoutDelayIsReadyAtOnce) {
  AddHost("n1", 1);
  Start();
  gs_operation op = Operation("work");
  TaskId t = AddTask(&op);
  Round();
  dispatcher_->RetryLater(t, 0);
  EXPECT_EQ(graph_.task(t).state, TaskState::kReady);
  EXPECT_EQ(dispatcher_->pending_retries(), 0u);
}

TEST_F(DispatcherTest, StagingFailuresAreCountedPerTask) {
  AddHost("n1", 1);
  Start();
  dispatcher_->CountStagingFailure(3);
  dispatcher_->CountStagingFailure(3);
  EXPECT_EQ(dispatcher_->staging_failures(3), 2u);
  EXPECT_EQ(dispatcher_->staging_failures(4), 0u);
}

TEST_F(DispatcherTest, WithReplicationIdleSlotsRunReplicasOfRunningTasks) {
  replication_.mode = ReplicationMode::kFixed;  // two instances at most
  dispatcher_ =
      std::make_unique<Dispatcher>(replication_, graph_, ops_, hosts_, jobs_,
                                   data_, std::make_unique<FakeSite>(&due_));
  AddHost("n1", 1);
  AddHost("n2", 1);
  Start();
  gs_operation op = Operation("work");
  TaskId t = AddTask(&op);
  std::vector<Dispatcher::Booking> booked = Round();
  ASSERT_EQ(booked.size(), 2u) << "the task, and a replica on the idle host";
  EXPECT_FALSE(booked[0].replica);
  EXPECT_TRUE(booked[1].replica);
  EXPECT_EQ(booked[1].task, t);
  EXPECT_NE(booked[1].host, booked[0].host);
}

}  // namespace
}  // namespace gs
