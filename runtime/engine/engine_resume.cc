// The engine's side of the task journal and of resuming a run whose master
// was killed: ResumeJournal (resume_journal.h) decides; this makes it,
// answers what it asks of the engine (JournalLink), and does the waits and
// transfers that need the engine's thread and lock.
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <chrono>
#include <memory>

#include "runtime/engine/engine.h"
#include "runtime/engine/engine_hosts.h"
#include "runtime/engine/resume_journal.h"
#include "runtime/history/history.h"

namespace gs {

// Called by the journal under mu_.
class Engine::JournalLink final : public ResumeJournal::Site {
 public:
  explicit JournalLink(Engine* engine) : e_(*engine) {}
  std::string VersionPath(VersionId v) const REQUIRES(e_.mu_)
      REQUIRES(e_.mu_) override {
    return e_.mover_.places().VersionPath(v);
  }
  std::string VersionFileName(VersionId v) const REQUIRES(e_.mu_)
      REQUIRES(e_.mu_) override {
    return e_.mover_.places().VersionFileName(v);
  }
  size_t NumHosts() const REQUIRES(e_.mu_) REQUIRES(e_.mu_) override {
    return e_.hosts_.size();
  }
  ResumeJournal::HostView Host(HostId h) const REQUIRES(e_.mu_)
      REQUIRES(e_.mu_) override {
    const HostEntry& host = *e_.hosts_[h];
    return {host.name, host.shared, host.usable, host.data_dir};
  }
  void Requeue(TaskId t) REQUIRES(e_.mu_) override {
    e_.dispatcher_.Requeue(t);
  }
  void Ready(const std::vector<TaskId>& ready) REQUIRES(e_.mu_) override {
    for (TaskId r : ready) e_.dispatcher_.AddReady(r);
    if (!ready.empty()) e_.WakeLocked();
  }
  void Wake() REQUIRES(e_.mu_) override { e_.WakeLocked(); }
  void NotifyWaiters() REQUIRES(e_.mu_) override {
    e_.waits_.NotifyIfWaiting();
  }
  void TransfersChanged() REQUIRES(e_.mu_) override {
    e_.dispatcher_.TransfersChanged();
  }
  bool HasRemoteCopy(VersionId v) const REQUIRES(e_.mu_)
      REQUIRES(e_.mu_) override {
    return e_.mover_.places().HasRemoteCopy(v);
  }
  void SetOnlyCopy(VersionId v, HostId host) REQUIRES(e_.mu_) override {
    e_.mover_.places().SetOnlyCopy(v, host);
  }
  void Resumed(TaskId t) REQUIRES(e_.mu_) override {
    if (e_.memory_.cache) e_.memory_.cache->Adopted(t);
  }
  std::string KnownContentId(VersionId v) const REQUIRES(e_.mu_) override {
    return e_.memory_.cache ? e_.memory_.cache->JournalIdOf(v) : "";
  }

 private:
  Engine& e_;
};

void Engine::OpenJournal() {
  if (!recorder_.history()) return;
  ResumeJournal::Setup setup;
  setup.graph = &program_.graph;
  setup.files = &program_.files;
  setup.ops = &program_.ops;
  setup.stats = &stats_;
  setup.results = &program_.results;
  {
    MutexLock lock(&mu_);  // free: the engine thread is not started yet
    setup.task_host = &rewinder_.task_hosts();
  }
  setup.fs = &work_dir_.fs();
  setup.messages = &console_.messages();
  setup.history = recorder_.history();
  setup.clock = &loop_.clock();
  setup.run = recorder_.run_id();
  setup.work_dir = options_.work_dir;
  setup.worker_identity = options_.code_identity.worker;
  memory_.journal = std::make_unique<ResumeJournal>(
      std::move(setup), std::make_unique<JournalLink>(this));
  // Start took the work dir's lock (WorkDir::Prepare): no master that still
  // runs can own a run that looks interrupted.
  if (options_.resume)
    memory_.journal->LoadInterruptedRuns(options_.program, options_.cwd);
  if (!options_.reuse.on) return;
  ResultCache::Setup cache;
  cache.graph = &program_.graph;
  cache.files = &program_.files;
  cache.ops = &program_.ops;
  cache.stats = &stats_;
  cache.results = &program_.results;
  cache.messages = &console_.messages();
  cache.history = recorder_.history();
  cache.clock = &loop_.clock();
  cache.run = recorder_.run_id();
  cache.store_dir = options_.work_dir + "/store";
  cache.cwd = options_.cwd;
  cache.code = options_.code_identity;
  cache.never_reuse = options_.reuse.never;
  cache.explain = options_.reuse.explain;
  cache.limit = options_.reuse.limit;
  memory_.cache = std::make_unique<ResultCache>(
      std::move(cache), std::make_unique<ReuseLink>(this));
}

void Engine::FetchResumeOutputs() {
  // Outputs the interrupted runs left on hosts that do not share the
  // master's files come to the master's data dir now: the transfer proves
  // they exist (and checks their bytes), which the adapters cannot tell
  // otherwise. Those the master holds already are not fetched again.
  // The engine thread runs already (host state may change): hold the lock.
  MutexLock lock(&mu_);
  std::vector<ResumeFetch> wants = memory_.journal->ResumeFetches();
  if (wants.empty()) return;
  lock.Unlock();
  auto left = std::make_shared<size_t>(wants.size());
  boost::asio::post(loop_.io(), [this, wants, left] {
    for (const ResumeFetch& w : wants) {
      hosts_[w.host]->adapter->Get(w.host_path, w.master_path,
                                   [this, w, left](Status s) {
                                     MutexLock lock(&mu_);
                                     if (s.ok()) memory_.journal->Fetched(w);
                                     --*left;
                                     waits_.gate().notify_all();
                                   });
    }
  });
  lock.Lock();
  waits_.Begin();
  // Bounded: a host that stops answering leaves its outputs to be
  // recomputed (a late transfer writes the same bytes).
  bool all = waits_.gate().wait_for(lock, std::chrono::minutes(5),
                                    [&] { return *left == 0; });
  waits_.Leave();
  memory_.journal->ReportFetched(wants, all);
}

void Engine::DeleteCollectedData() {
  std::vector<std::string> paths;
  std::vector<VersionId> remote;
  {
    MutexLock lock(&mu_);
    memory_.journal->TakeCollected(&paths, &remote);
  }
  mover_.RemoveFiles(paths);
  for (VersionId v : remote) mover_.RemoveVersionData(v);
}

void Engine::RecoverFinalVersionsLocked(MutexLock& lock) {
  if (!memory_.journal->RecomputeFinalVersions()) return;
  WakeLocked();
  waits_.Begin();
  waits_.gate().wait(lock, [&] {
    mu_.AssertHeld();  // the gate asks with the lock held
    return stats_.all_finished();
  });
  waits_.Leave();
}

Status Engine::RecoverCollectedLocked(MutexLock& lock, VersionId v) {
  if (!memory_.journal->resuming() || !memory_.journal->NeedsRecompute(v))
    return Status::Ok();
  memory_.journal->Recompute(v);
  WakeLocked();
  return WaitVersionLocked(
      lock, v, program_.files.path(program_.graph.version(v).file).c_str());
}

}  // namespace gs
