// ResumeJournal alone: no engine, no thread; files on the in-memory file
// system, the history in a temporary directory. Each "run" builds the same
// graph as the master program would, over one history.
#include "runtime/engine/resume_journal.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "runtime/base/virtual_clock.h"
#include "runtime/history/history.h"
#include "tests/support/fake_operations.h"
#include "tests/support/mem_file_system.h"
#include "tests/support/temp_dir.h"

namespace gs {
namespace {

using testing::kConsume;
using testing::kProduce;

constexpr char kProgram[] = "/bin/resume-journal-test";
constexpr char kCwd[] = "/w";

// The engine as the journal sees it: records what it is asked to do.
class FakeSite : public ResumeJournal::Site {
 public:
  FakeSite(const TaskGraph& graph, const FileTable& files,
           std::unordered_map<VersionId, std::vector<HostId>>& copies)
      : graph_(graph), files_(files), copies_(copies) {}

  std::string VersionPath(VersionId v) const override {
    if (graph_.version(v).number == 0)
      return files_.path(graph_.version(v).file);
    return std::string(kCwd) + "/.gsrt/data/" + VersionFileName(v);
  }
  std::string VersionFileName(VersionId v) const override {
    const std::string& user = files_.path(graph_.version(v).file);
    return std::to_string(v) + "-" + user.substr(user.rfind('/') + 1);
  }
  size_t NumHosts() const override { return hosts.size(); }
  ResumeJournal::HostView Host(HostId h) const override { return hosts[h]; }
  void Requeue(TaskId t) override { requeued.push_back(t); }
  void Ready(const std::vector<TaskId>& tasks) override {
    ready.insert(ready.end(), tasks.begin(), tasks.end());
  }
  void Wake() override { ++wakes; }
  void NotifyWaiters() override { ++notified; }
  void TransfersChanged() override {}
  bool HasRemoteCopy(VersionId v) const override {
    auto it = copies_.find(v);
    return it != copies_.end() && !it->second.empty();
  }
  void SetOnlyCopy(VersionId v, HostId host) override { copies_[v] = {host}; }

  std::vector<ResumeJournal::HostView> hosts{{"node", true, true, ""}};
  std::vector<TaskId> requeued, ready;
  int wakes = 0, notified = 0;

 private:
  const TaskGraph& graph_;
  const FileTable& files_;
  std::unordered_map<VersionId, std::vector<HostId>>& copies_;
};

// One run of the program: its graph, the engine state the journal reads,
// and the journal.
struct ProgramRun {
  FileTable files{kCwd};
  TaskGraph graph{&files};
  OperationTable ops;
  RunStats stats;
  std::unordered_map<TaskId, std::string> results;
  std::unordered_map<VersionId, std::vector<HostId>> remote_copies;
  std::vector<HostId> task_host;
  FakeSite* site = nullptr;  // owned by the journal
  std::unique_ptr<ResumeJournal> journal;
  RunId id = 0;
};

QueuedJob QueuedJobOf(JobId job, TaskId task, const std::string& batch_id) {
  QueuedJob q;
  q.job = job;
  q.task = task;
  q.batch_id = batch_id;
  q.name = "gsrt-" + std::to_string(job);
  q.dir = "/q/" + std::to_string(job);
  return q;
}

class ResumeJournalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto history = History::Open(tmp_.path() + "/history.db");
    ASSERT_TRUE(history.ok()) << history.status().ToString();
    history_ = std::move(history).value();
  }

  // A new run of the program (the earlier ones never ended).
  std::unique_ptr<ProgramRun> StartRun(const std::string& worker = "w1") {
    auto run = std::make_unique<ProgramRun>();
    run->id = *history_->BeginRun(kProgram, kCwd, 1, 0);
    ResumeJournal::Setup setup;
    setup.graph = &run->graph;
    setup.files = &run->files;
    setup.ops = &run->ops;
    setup.stats = &run->stats;
    setup.results = &run->results;
    setup.task_host = &run->task_host;
    setup.fs = &fs_;
    setup.messages = &messages_;
    setup.history = history_.get();
    setup.clock = &clock_;
    setup.run = run->id;
    setup.work_dir = std::string(kCwd) + "/.gsrt";
    setup.worker_identity = worker;
    auto site =
        std::make_unique<FakeSite>(run->graph, run->files, run->remote_copies);
    run->site = site.get();
    run->journal =
        std::make_unique<ResumeJournal>(std::move(setup), std::move(site));
    run->journal->LoadInterruptedRuns(kProgram, kCwd);
    return run;
  }
  // Submits produce(out, n) as the engine does: the journal first.
  TaskId Produce(ProgramRun& run, const char* out, int n) {
    FileParam files[] = {{out, false, true}};
    TaskId t = run.graph.AddTask(run.ops.Intern(&kProduce), files, 1,
                                 "n=" + std::to_string(n));
    if (run.journal->resuming()) run.journal->ResumeSubmitted(t);
    return t;
  }
  TaskId Consume(ProgramRun& run, const char* in, const char* out) {
    FileParam files[] = {{in, true, false}, {out, false, true}};
    TaskId t = run.graph.AddTask(run.ops.Intern(&kConsume), files, 2, "");
    if (run.journal->resuming()) run.journal->ResumeSubmitted(t);
    return t;
  }
  // `t` ran on the master's host: its outputs are written, it is done.
  void Finish(ProgramRun& run, TaskId t) {
    const FileAccess* acc = run.graph.accesses(t);
    for (uint32_t i = 0; i < run.graph.task(t).num_files; ++i) {
      if (acc[i].out != kNoVersion)
        fs_.Put(run.site->VersionPath(acc[i].out),
                "data of " + std::to_string(t));
    }
    std::vector<TaskId> ready;
    run.graph.MarkDone(t, &ready);
    if (run.task_host.size() <= t) run.task_host.resize(t + 1, kNoHost);
    run.task_host[t] = 0;
    run.journal->Finished(t);
  }
  std::vector<JournalEntry> Journal(RunId run) {
    auto entries = history_->LoadJournal(run);
    EXPECT_TRUE(entries.ok()) << entries.status().ToString();
    return entries.ok() ? *entries : std::vector<JournalEntry>();
  }

  TempDir tmp_;
  std::unique_ptr<History> history_;
  testing::MemFileSystem fs_;
  RecordingMessages messages_;
  VirtualClock clock_;
  Mutex mu_;
};

TEST_F(ResumeJournalTest, JournalsFinishedTasksWithWhereTheirOutputsAre) {
  auto run = StartRun();
  EXPECT_FALSE(run->journal->resuming());
  TaskId t = Produce(*run, "a.txt", 1);
  Finish(*run, t);
  run->journal->Write(mu_);
  std::vector<JournalEntry> journal = Journal(run->id);
  ASSERT_EQ(journal.size(), 1u);
  EXPECT_EQ(journal[0].task, t);
  EXPECT_EQ(journal[0].signature, run->journal->Signature(t));
  EXPECT_EQ(journal[0].signature.size(), 32u);
  EXPECT_EQ(journal[0].operation, "produce");
  EXPECT_EQ(journal[0].worker, "w1");
  ASSERT_EQ(journal[0].outputs.size(), 1u);
  EXPECT_EQ(journal[0].outputs[0].file, run->journal->OutputFileNames(t)[0]);
  EXPECT_EQ(journal[0].outputs[0].host, "");  // on the master
  EXPECT_EQ(journal[0].outputs[0].size, 9);   // "data of 0"
  EXPECT_FALSE(journal[0].outputs[0].gone);
}

TEST_F(ResumeJournalTest, AResumedRunReusesWhatTheJournalHolds) {
  auto first = StartRun();
  Finish(*first, Produce(*first, "a.txt", 1));
  Produce(*first, "b.txt", 2);  // interrupted before it finished
  first->journal->Write(mu_);

  auto second = StartRun();
  ASSERT_TRUE(second->journal->resuming());
  EXPECT_TRUE(messages_.Has(MessageKind::kInfo,
                            "gsrt: resuming: 1 finished tasks journaled by 1 "
                            "interrupted run(s), the newest run 1\n"))
      << messages_.AllText();
  TaskId a = Produce(*second, "a.txt", 1);
  TaskId b = Produce(*second, "b.txt", 2);
  EXPECT_EQ(second->graph.task(a).state, TaskState::kDone);
  EXPECT_NE(second->graph.task(b).state, TaskState::kDone);
  EXPECT_EQ(second->stats.reused, 1u);
  EXPECT_EQ(second->stats.done, 1u);
  EXPECT_EQ(second->site->notified, 1);
  VersionId out = second->graph.accesses(a)[0].out;
  EXPECT_TRUE(second->graph.version(out).on_master);
  // The reused task is journaled by this run too, pointing at the first.
  second->journal->Write(mu_);
  std::vector<JournalEntry> journal = Journal(second->id);
  ASSERT_EQ(journal.size(), 1u);
  EXPECT_EQ(journal[0].reused_from, first->id);
}

TEST_F(ResumeJournalTest, OtherWorkerCodeRunsTheTaskAgain) {
  auto first = StartRun("w1");
  Finish(*first, Produce(*first, "a.txt", 1));
  first->journal->Write(mu_);
  auto second = StartRun("w2");
  TaskId a = Produce(*second, "a.txt", 1);
  EXPECT_NE(second->graph.task(a).state, TaskState::kDone);
  EXPECT_EQ(second->stats.reused, 0u);
  EXPECT_EQ(second->stats.rerun_changed, 1u);
}

TEST_F(ResumeJournalTest, AnOutputWhoseDataIsGoneIsRecomputedWhenRead) {
  auto first = StartRun();
  TaskId a = Produce(*first, "a.txt", 1);
  Finish(*first, a);
  first->journal->Write(mu_);
  // Collected in the first run: its data is gone.
  ASSERT_TRUE(
      fs_.Remove(first->site->VersionPath(first->graph.accesses(a)[0].out))
          .ok());

  auto second = StartRun();
  TaskId a2 = Produce(*second, "a.txt", 1);
  VersionId out = second->graph.accesses(a2)[0].out;
  EXPECT_EQ(second->graph.task(a2).state, TaskState::kDone);  // reused
  EXPECT_FALSE(second->graph.version(out).on_master);
  EXPECT_TRUE(second->journal->NeedsRecompute(out));
  // A reader comes: the producer runs again first.
  TaskId c = Consume(*second, "a.txt", "c.txt");
  EXPECT_EQ(second->site->requeued, (std::vector<TaskId>{a2, c}));
  EXPECT_EQ(second->graph.task(a2).state, TaskState::kWaiting);
  EXPECT_EQ(second->graph.version(out).state, VersionState::kPending);
  EXPECT_EQ(second->stats.reused, 0u);
  EXPECT_EQ(second->stats.done, 0u);
  EXPECT_FALSE(second->journal->NeedsRecompute(out));
}

TEST_F(ResumeJournalTest, FinalVersionsWithoutDataAreMadeAgainAtTheEnd) {
  auto first = StartRun();
  TaskId a = Produce(*first, "a.txt", 1);
  Finish(*first, a);
  first->journal->Write(mu_);
  ASSERT_TRUE(
      fs_.Remove(first->site->VersionPath(first->graph.accesses(a)[0].out))
          .ok());
  auto second = StartRun();
  TaskId a2 = Produce(*second, "a.txt", 1);
  EXPECT_TRUE(second->journal->RecomputeFinalVersions());
  EXPECT_EQ(second->site->requeued, std::vector<TaskId>{a2});
  EXPECT_FALSE(second->journal->RecomputeFinalVersions());  // nothing left
}

TEST_F(ResumeJournalTest, CollectedDataGoesOnlyWhileStillGarbage) {
  auto run = StartRun();
  TaskId a = Produce(*run, "a.txt", 1);
  Finish(*run, a);
  TaskId a_again = Produce(*run, "a.txt", 2);  // supersedes a's version
  Finish(*run, a_again);
  VersionId old = run->graph.accesses(a)[0].out;
  VersionId latest = run->graph.accesses(a_again)[0].out;
  run->remote_copies[old] = {0};
  run->journal->Collected(old);
  run->journal->Collected(latest);  // the file's newest: kept
  std::vector<std::string> paths;
  std::vector<VersionId> remote;
  run->journal->TakeCollected(&paths, &remote);
  EXPECT_EQ(paths, std::vector<std::string>{run->site->VersionPath(old)});
  EXPECT_EQ(remote, std::vector<VersionId>{old});
  EXPECT_FALSE(run->graph.version(old).on_master);
  EXPECT_TRUE(run->graph.version(latest).on_master);
  paths.clear();
  remote.clear();
  run->journal->TakeCollected(&paths, &remote);  // forgotten once taken
  EXPECT_TRUE(paths.empty());
}

TEST_F(ResumeJournalTest, TakesOverTheBatchJobOfATaskOnItsHost) {
  auto first = StartRun();
  TaskId a = Produce(*first, "a.txt", 1);
  TaskId b = Produce(*first, "b.txt", 2);
  Finish(*first, Produce(*first, "done.txt", 3));  // so the run resumes
  first->journal->Write(mu_);
  std::vector<QueuedJobEntry> rows(2);
  rows[0].run = rows[1].run = first->id;
  rows[0].host = "node";
  rows[0].job = QueuedJobOf(7, a, "100");
  rows[1].host = "node";
  rows[1].job = QueuedJobOf(8, b, "101");
  first->journal->WriteQueuedJobs(mu_, rows, /*commit=*/true);

  auto second = StartRun();
  EXPECT_TRUE(messages_.Has(MessageKind::kInfo,
                            "gsrt: resuming: 2 batch jobs of run 1 may still "
                            "be queued or running; they are taken over, not "
                            "run again\n"))
      << messages_.AllText();
  TaskId a2 = Produce(*second, "a.txt", 1);
  TaskId b2 = Produce(*second, "b.txt", 2);
  std::optional<QueuedJob> job = second->journal->TakeOver(a2, "node");
  ASSERT_TRUE(job.has_value());
  EXPECT_EQ(job->batch_id, "100");
  // Counted once the adapter records the job as taken over (it could have
  // voided its claim and submitted it afresh instead), and once only.
  EXPECT_EQ(second->stats.adopted, 0u);
  std::vector<QueuedJobEntry> adopted(1);
  adopted[0].run = second->id;
  adopted[0].host = "node";
  adopted[0].job = *job;
  adopted[0].job.adopted = true;
  second->journal->WriteQueuedJobs(mu_, adopted, /*commit=*/false);
  second->journal->WriteQueuedJobs(mu_, adopted, /*commit=*/false);
  EXPECT_EQ(second->stats.adopted, 1u);
  EXPECT_FALSE(second->journal->TakeOver(a2, "node"));  // taken once
  // b is placed elsewhere this time: its old job is cancelled.
  EXPECT_FALSE(second->journal->HasJobsToForget());
  EXPECT_FALSE(second->journal->TakeOver(b2, "other"));
  EXPECT_TRUE(second->journal->HasJobsToForget());
  std::vector<QueuedJobEntry> forget =
      second->journal->TakeJobsToForget(/*all=*/true);
  ASSERT_EQ(forget.size(), 1u);
  EXPECT_EQ(forget[0].job.batch_id, "101");
}

// Ctrl-C on the run that took a job over: its adapters cancelled that
// job, so the next run is offered only the job nobody touched (issue 36).
TEST_F(ResumeJournalTest, AfterASignalOnlyJobsNotCancelledAreOffered) {
  auto first = StartRun();
  TaskId a = Produce(*first, "a.txt", 1);
  TaskId b = Produce(*first, "b.txt", 2);
  Finish(*first, Produce(*first, "done.txt", 3));
  first->journal->Write(mu_);
  std::vector<QueuedJobEntry> rows(2);
  rows[0].run = rows[1].run = first->id;
  rows[0].host = rows[1].host = "node";
  rows[0].job = QueuedJobOf(7, a, "100");
  rows[1].job = QueuedJobOf(8, b, "101");
  first->journal->WriteQueuedJobs(mu_, rows, /*commit=*/true);

  auto second = StartRun();
  TaskId a2 = Produce(*second, "a.txt", 1);
  ASSERT_TRUE(second->journal->TakeOver(a2, "node").has_value());
  // The take-over is recorded under the second run, as the adapter does.
  std::vector<QueuedJobEntry> adopted(1);
  adopted[0].run = second->id;
  adopted[0].host = "node";
  adopted[0].job = QueuedJobOf(9, a2, "100");
  adopted[0].job.adopted = true;
  second->journal->WriteQueuedJobs(mu_, adopted, /*commit=*/true);
  second->journal->RecordStillQueued(mu_);
  auto left_by_first = history_->LoadQueuedJobs(first->id);
  ASSERT_TRUE(left_by_first.ok());
  EXPECT_TRUE(left_by_first->empty());
  auto left = history_->LoadQueuedJobs(second->id);
  ASSERT_TRUE(left.ok());
  ASSERT_EQ(left->size(), 1u);
  EXPECT_EQ((*left)[0].job.batch_id, "101");

  const size_t said_before = messages_.AllText().size();
  auto third = StartRun();
  EXPECT_TRUE(messages_.Has(MessageKind::kInfo,
                            "gsrt: resuming: 1 batch jobs of run 2 may still "
                            "be queued or running; they are taken over, not "
                            "run again\n"))
      << messages_.AllText();
  EXPECT_EQ(messages_.AllText().substr(said_before).find("of run 1 may"),
            std::string::npos);
  Produce(*third, "a.txt", 1);  // the same graph, so the same file names
  TaskId b3 = Produce(*third, "b.txt", 2);
  std::optional<QueuedJob> job = third->journal->TakeOver(b3, "node");
  ASSERT_TRUE(job.has_value());  // kept with the signature of its task
  EXPECT_EQ(job->batch_id, "101");
}

TEST_F(ResumeJournalTest, OutputsOnOtherHostsAreFetchedThenKeptThere) {
  auto first = StartRun();
  first->site->hosts = {{"far", false, true, "/far/data"}};
  TaskId a = Produce(*first, "a.txt", 1);
  std::vector<TaskId> ready;
  first->graph.MarkDone(a, &ready);
  first->task_host = {0};
  first->journal->Finished(a);
  first->journal->Write(mu_);

  auto second = StartRun();
  second->site->hosts = {{"far", false, true, "/far/data"}};
  std::vector<ResumeFetch> wants = second->journal->ResumeFetches();
  ASSERT_EQ(wants.size(), 1u);
  EXPECT_EQ(wants[0].host, 0u);
  EXPECT_EQ(wants[0].host_path,
            "/far/data/" + first->journal->OutputFileNames(a)[0]);
  fs_.Put(wants[0].master_path, "fetched");
  second->journal->Fetched(wants[0]);
  second->journal->ReportFetched(wants, true);
  EXPECT_TRUE(messages_.Has(MessageKind::kInfo,
                            "gsrt: resuming: fetched 1 of 1 outputs the "
                            "interrupted run left on other hosts\n"));
  std::vector<std::pair<HostId, std::string>> copies =
      second->journal->FetchedCopies();
  ASSERT_EQ(copies.size(), 1u);
  EXPECT_EQ(copies[0].first, 0u);
  EXPECT_EQ(copies[0].second, first->journal->OutputFileNames(a)[0]);
  TaskId a2 = Produce(*second, "a.txt", 1);
  VersionId out = second->graph.accesses(a2)[0].out;
  EXPECT_EQ(second->graph.task(a2).state, TaskState::kDone);
  EXPECT_EQ(second->remote_copies[out], std::vector<HostId>{0});
}

}  // namespace
}  // namespace gs
