// The engine's side of the task journal and of resuming a run whose master
// was killed (docs/design.md, "Resume").
//
// Every task that finishes leaves an entry in the history (signature, where
// its outputs are), written in the same batched transactions as the job
// records. A master started again with the same program in the same
// directory, while the previous run never ended, resumes: at Submit a task
// whose signature (and output file names) the journal holds is marked done
// without running and its outputs are adopted where they are. Outputs whose
// data is gone (collected because every reader had finished) are fine as
// long as nobody needs them again; when someone does, their producer runs
// again.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <chrono>
#include <cstdio>
#include <memory>

#include "runtime/base/hashing.h"
#include "runtime/engine/engine.h"
#include "runtime/engine/engine_hosts.h"
#include "runtime/engine/engine_journal.h"
#include "runtime/history/history.h"

namespace gs {

namespace {

FileFacts FactsOf(const FileInfo& info) {
  FileFacts f;
  if (!info.exists) return f;
  f.exists = true;
  f.size = static_cast<int64_t>(info.size);
  f.mtime_ns = info.mtime_ns;
  f.inode = info.inode;
  return f;
}

std::string FetchKey(const std::string& host, const std::string& file) {
  return host + '\n' + file;
}

}  // namespace

std::string Engine::ContentIdOfFile(const std::string& path) {
  ContentHash hash;
  Status s = fs_->Read(path, [&](std::string_view c) { hash.Update(c); });
  if (s.code() == Status::Code::kNotFound) return MissingFileVersionId();
  if (!s.ok()) {
    // Never equal to anything journaled: the task cannot be reused.
    static std::atomic<uint64_t> unreadable{0};
    return "c:unreadable:" + std::to_string(::getpid()) + ":" +
           std::to_string(++unreadable);
  }
  return ContentVersionId(hash.Digest(), hash.size());
}

void Engine::OpenJournal() {
  if (!history_) return;
  journal_ = std::make_unique<Journal>();
  // Start took the work dir's lock (PrepareWorkDir): no master that still
  // runs can own a run that looks interrupted.
  if (options_.resume) LoadInterruptedRuns();
}

void Engine::LoadInterruptedRuns() {
  auto runs =
      history_->FindInterruptedRuns(options_.program, options_.cwd, run_id_);
  if (!runs.ok()) {
    std::fprintf(stderr, "gsrt: warning: cannot read the journal: %s\n",
                 runs.status().message().c_str());
    return;
  }
  for (RunId run : *runs) {
    auto entries = history_->LoadJournal(run);
    if (!entries.ok()) {
      std::fprintf(stderr, "gsrt: warning: cannot resume from run %lld: %s\n",
                   static_cast<long long>(run),
                   entries.status().message().c_str());
      break;  // older runs could hold data a newer one overwrote
    }
    journal_->index.AddRun(std::move(entries).value());
    journal_->interrupted.push_back(run);
  }
  journal_->resuming = !journal_->index.empty();
  if (journal_->resuming) {
    std::fprintf(stderr,
                 "gsrt: resuming: %zu finished tasks journaled by %zu "
                 "interrupted run(s), the newest run %lld\n",
                 journal_->index.size(), journal_->interrupted.size(),
                 static_cast<long long>(journal_->interrupted.front()));
  }
  // After every journal: a job whose task finished is not taken over.
  for (RunId run : journal_->interrupted) LoadQueuedJobs(run);
}

void Engine::FetchResumeOutputs() {
  // Outputs the interrupted runs left on hosts that do not share the
  // master's files come to the master's data dir now: the transfer proves
  // they exist (and checks their bytes), which the adapters cannot tell
  // otherwise. Those the master holds already are not fetched again.
  // The engine thread runs already (host state may change): hold the lock.
  MutexLock lock(&mu_);
  std::vector<ResumeFetch> wants = ResumeFetchesLocked();
  if (wants.empty()) return;
  lock.Unlock();
  auto left = std::make_shared<size_t>(wants.size());
  boost::asio::post(*io_, [this, wants, left] {
    for (const ResumeFetch& w : wants) {
      hosts_[w.host]->adapter->Get(w.host_path, w.master_path,
                                   [this, w, left](Status s) {
                                     MutexLock lock(&mu_);
                                     if (s.ok())
                                       journal_->fetched[w.key] = w.host;
                                     --*left;
                                     finished_cv_.notify_all();
                                   });
    }
  });
  lock.Lock();
  ++waiters_;
  // Bounded: a host that stops answering leaves its outputs to be
  // recomputed (a late transfer writes the same bytes).
  bool all = finished_cv_.wait_for(lock, std::chrono::minutes(5),
                                   [&] { return *left == 0; });
  --waiters_;
  size_t got = 0;
  for (const ResumeFetch& w : wants) got += journal_->fetched.count(w.key);
  std::fprintf(stderr,
               "gsrt: resuming: fetched %zu of %zu outputs the interrupted "
               "run left on other hosts%s\n",
               got, wants.size(), all ? "" : " (gave up waiting for the rest)");
}

std::vector<Engine::ResumeFetch> Engine::ResumeFetchesLocked() {
  std::vector<ResumeFetch> wants;
  journal_->index.ForEach([&](const JournalEntry& e) {
    for (const JournalOutput& o : e.outputs) {
      if (o.host.empty() || o.gone) continue;
      std::string key = FetchKey(o.host, o.file);
      if (journal_->fetched.count(key)) continue;
      std::string master_path = options_.work_dir + "/data/" + o.file;
      FileFacts here = FactsOf(fs_->Stat(master_path));
      if (here.exists && (o.size < 0 || o.size == here.size)) {
        journal_->fetched[key] = kNoHost;
        continue;
      }
      for (HostId h = 0; h < hosts_.size(); ++h) {
        const HostEntry& host = *hosts_[h];
        if (host.name != o.host || host.shared || !host.usable) continue;
        journal_->fetched[key] = kNoHost;  // placeholder: deduplicates
        wants.push_back({h, key, host.data_dir + "/" + o.file, master_path});
      }
    }
  });
  for (const ResumeFetch& w : wants) journal_->fetched.erase(w.key);
  return wants;
}

std::string Engine::VersionIdentityLocked(VersionId v) {
  const Version& ver = graph_.version(v);
  if (ver.producer == kMasterTask) {
    auto it = journal_->content_ids.find(v);
    // "" while WriteJournal hashes it outside the lock.
    if (it != journal_->content_ids.end() && !it->second.empty())
      return it->second;
    // Usually hashed outside the lock (WriteJournal); resuming needs it now.
    std::string id = ContentIdOfFile(data_.VersionPath(v));
    journal_->content_ids[v] = id;
    return id;
  }
  const Task& task = graph_.task(ver.producer);
  const FileAccess* acc = graph_.accesses(ver.producer);
  uint32_t position = 0;
  while (position < task.num_files && acc[position].out != v) ++position;
  return ProducedVersionId(SignatureLocked(ver.producer), position);
}

std::string Engine::SignatureLocked(TaskId t) {
  auto& sigs = journal_->signatures;
  if (sigs.size() <= t) sigs.resize(graph_.num_tasks(), {});
  if (sigs[t][0] != 0) return std::string(sigs[t].data(), sigs[t].size());
  const Task& task = graph_.task(t);
  SignatureBuilder sig(ops_[task.op].name, graph_.scalars(t));
  const FileAccess* acc = graph_.accesses(t);
  for (uint32_t i = 0; i < task.num_files; ++i) {
    std::string input =
        acc[i].in == kNoVersion ? "" : VersionIdentityLocked(acc[i].in);
    std::string_view output =
        acc[i].out == kNoVersion
            ? std::string_view()
            : std::string_view(files_.path(graph_.version(acc[i].out).file));
    sig.AddFile(i, input, output);
  }
  std::string hex = sig.Finish();
  // Computing the inputs' identities may have grown the vector.
  std::copy_n(hex.data(), sigs[t].size(), journal_->signatures[t].data());
  return hex;
}

void Engine::JournalFinishedLocked(TaskId t) {
  if (t < journal_->reused.size() && journal_->reused[t]) {
    // Reused, then rewound (a host or copy lost) and run after all.
    journal_->reused[t] = false;
    --stats_.reused;
  }
  HostId host = t < task_host_.size() ? task_host_[t] : kNoHost;
  auto r = results_.find(t);
  journal_->finished.push_back(
      {t, host, clock_->Now(), r == results_.end() ? "" : r->second});
}

void Engine::WriteJournal() {
  // 1. What to hash: versions the master provides that the finished tasks
  // read. Their data outlives this call: version 0 is the user's file, and
  // collected versions are deleted only after the next commit.
  JournalBatch batch;
  {
    MutexLock lock(&mu_);
    TakeJournalBatchLocked(&batch);
  }
  if (batch.finished.empty() && batch.entries.empty()) return;
  for (auto& [v, path] : batch.to_hash) path = ContentIdOfFile(path);
  // 2. The entries, with the paths of outputs on the master to stat.
  {
    MutexLock lock(&mu_);
    for (auto& [v, id] : batch.to_hash) journal_->content_ids[v] = id;
    MakeJournalEntriesLocked(&batch);
  }
  // 3. Size, time and inode of outputs on the master: a later resume
  // adopts exactly these files.
  StatJournalOutputs(&batch);
  for (const JournalEntry& e : batch.entries) {
    Status s = history_->RecordTaskJournal(e);
    if (!s.ok()) {
      std::fprintf(stderr, "gsrt: warning: journal: %s\n", s.message().c_str());
      break;
    }
  }
}

void Engine::TakeJournalBatchLocked(JournalBatch* batch) {
  batch->finished.swap(journal_->finished);
  batch->entries.swap(journal_->entries);
  for (const Journal::Finished& f : batch->finished) {
    const Task& task = graph_.task(f.task);
    const FileAccess* acc = graph_.accesses(f.task);
    for (uint32_t i = 0; i < task.num_files; ++i) {
      VersionId v = acc[i].in;
      if (v == kNoVersion || graph_.version(v).producer != kMasterTask ||
          journal_->content_ids.count(v))
        continue;
      journal_->content_ids.emplace(v, "");  // being hashed
      batch->to_hash.emplace_back(v, data_.VersionPath(v));
    }
  }
}

void Engine::MakeJournalEntriesLocked(JournalBatch* batch) {
  for (const Journal::Finished& f : batch->finished) {
    const Task& task = graph_.task(f.task);
    const FileAccess* acc = graph_.accesses(f.task);
    JournalEntry e;
    e.run = run_id_;
    e.task = f.task;
    e.signature = SignatureLocked(f.task);
    e.operation = ops_[task.op].name;
    bool shared = f.host == kNoHost || hosts_[f.host]->shared;
    e.host = f.host == kNoHost ? "" : hosts_[f.host]->name;
    e.finished = f.when;
    e.results = f.results;
    e.worker = options_.worker_identity;
    uint32_t outputs = 0;
    for (uint32_t i = 0; i < task.num_files; ++i)
      outputs += acc[i].out != kNoVersion;
    std::vector<std::string> stat_paths;
    for (uint32_t i = 0; i < task.num_files; ++i) {
      if (acc[i].out == kNoVersion) continue;
      JournalOutput o;
      o.param = i;
      o.file = data_.VersionFileName(acc[i].out);
      if (!shared) {
        o.host = e.host;
        // Adapters report the bytes of all outputs together (and some
        // report none: 0 says nothing).
        uint64_t size = graph_.version(acc[i].out).size;
        if (outputs == 1 && size > 0) o.size = static_cast<int64_t>(size);
      }
      stat_paths.push_back(shared ? data_.VersionPath(acc[i].out) : "");
      e.outputs.push_back(std::move(o));
    }
    batch->stat_paths.push_back(std::move(stat_paths));
    batch->entries.push_back(std::move(e));
  }
}

void Engine::StatJournalOutputs(JournalBatch* batch) {
  // The finished tasks' entries come after the reused ones.
  const size_t first_new = batch->entries.size() - batch->stat_paths.size();
  for (size_t k = 0; k < batch->stat_paths.size(); ++k) {
    JournalEntry& e = batch->entries[first_new + k];
    for (size_t i = 0; i < e.outputs.size(); ++i) {
      if (batch->stat_paths[k][i].empty()) continue;
      FileFacts f = FactsOf(fs_->Stat(batch->stat_paths[k][i]));
      if (!f.exists) {
        e.outputs[i].gone = true;
        continue;
      }
      e.outputs[i].size = f.size;
      e.outputs[i].mtime_ns = f.mtime_ns;
      e.outputs[i].inode = f.inode;
    }
  }
}

void Engine::DeleteCollectedData() {
  std::vector<std::string> paths;
  std::vector<VersionId> remote;
  {
    MutexLock lock(&mu_);
    for (VersionId v : journal_->collected) {
      Version& ver = graph_.version(v);
      // Still garbage? A rewind (host loss, recompute) may need it again.
      if (ver.readers != 0 || ver.state != VersionState::kAvailable ||
          files_.latest(ver.file) == v)
        continue;
      if (ver.on_master) paths.push_back(data_.VersionPath(v));
      ver.on_master = false;
      TransfersChangedLocked();
      if (data_.HasRemoteCopy(v)) remote.push_back(v);
    }
    journal_->collected.clear();
  }
  RemoveFiles(paths);
  for (VersionId v : remote) RemoveVersionData(v);
}

bool Engine::ResumeSubmittedLocked(TaskId t) {
  Task& task = graph_.task(t);
  if (task.state == TaskState::kFutile) return false;
  const FileAccess* acc = graph_.accesses(t);
  std::vector<std::string> outputs = OutputFileNamesLocked(t);
  if (const JournalEntry* e =
          journal_->index.Find(SignatureLocked(t), outputs)) {
    if (e->worker == options_.worker_identity) {
      ReuseTaskLocked(t, *e);
      return true;
    }
    // Same call, but computed by other code: the functions changed.
    ++stats_.rerun_changed;
  }
  // The task runs: inputs that were adopted without data are made again.
  bool recompute = false;
  for (uint32_t i = 0; i < task.num_files; ++i) {
    if (acc[i].in == kNoVersion || !NeedsRecomputeLocked(acc[i].in)) continue;
    RecomputeLocked(acc[i].in);
    recompute = true;
  }
  if (!recompute) return false;
  for (uint32_t i = 0; i < task.num_files; ++i) {
    if (acc[i].in != kNoVersion) graph_.RemoveWaiting(acc[i].in, t);
  }
  RequeueLocked(t);
  WakeLocked();
  return true;
}

void Engine::ReuseTaskLocked(TaskId t, const JournalEntry& from) {
  Task& task = graph_.task(t);
  const FileAccess* acc = graph_.accesses(t);
  JournalEntry mine;
  mine.run = run_id_;
  mine.task = t;
  mine.signature = from.signature;
  mine.operation = from.operation;
  mine.finished = clock_->Now();
  mine.results = from.results;
  mine.reused_from = from.reused_from != 0 ? from.reused_from : from.run;
  mine.worker = from.worker;
  // Find() matched the output file names in parameter order.
  std::vector<uint32_t> positions;
  for (uint32_t i = 0; i < task.num_files; ++i) {
    if (acc[i].out != kNoVersion) positions.push_back(i);
  }
  for (size_t k = 0; k < from.outputs.size(); ++k) {
    JournalOutput rec =
        AdoptOutputLocked(acc[positions[k]].out, from.outputs[k]);
    rec.param = positions[k];
    mine.outputs.push_back(std::move(rec));
  }
  if (ops_[task.op].synchronous) results_[t] = from.results;
  if (journal_->reused.size() <= t) journal_->reused.resize(t + 1);
  journal_->reused[t] = true;
  // Whatever waits for inputs does not matter: the outputs exist already.
  std::vector<TaskId> ready;
  graph_.MarkDone(t, &ready);
  ++stats_.done;
  ++stats_.reused;
  for (TaskId r : ready) scheduler_.AddReady(r, graph_.task(r).op);
  if (!ready.empty()) WakeLocked();
  journal_->entries.push_back(std::move(mine));
  if (waiters_ > 0) finished_cv_.notify_all();
}

JournalOutput Engine::AdoptOutputLocked(VersionId v, const JournalOutput& o) {
  Version& ver = graph_.version(v);
  FileFacts found = FactsOf(fs_->Stat(data_.VersionPath(v)));
  bool ok;
  HostId from_host = kNoHost;
  if (o.host.empty()) {
    ok = SameOutput(o, found);
  } else {
    auto it = journal_->fetched.find(FetchKey(o.host, o.file));
    ok = it != journal_->fetched.end() && !o.gone && found.exists &&
         (o.size < 0 || o.size == found.size);
    if (ok) from_host = it->second;
  }
  // Without data the version is "collected": fine unless needed again.
  ver.on_master = ok;
  TransfersChangedLocked();
  if (ok) {
    ver.size = static_cast<uint64_t>(found.size);
    if (from_host != kNoHost) data_.SetOnlyCopy(v, from_host);
  }
  JournalOutput rec;
  rec.file = o.file;
  rec.gone = !ok;
  if (ok) {
    rec.size = found.size;
    rec.mtime_ns = found.mtime_ns;
    rec.inode = found.inode;
  }
  return rec;
}

bool Engine::NeedsRecomputeLocked(VersionId v) const {
  const Version& ver = graph_.version(v);
  if (ver.state != VersionState::kAvailable || ver.number == 0 ||
      ver.on_master || ver.producer == kMasterTask)
    return false;
  if (data_.HasRemoteCopy(v)) return false;
  const auto& reused = journal_->reused;
  return ver.producer < reused.size() && reused[ver.producer];
}

void Engine::RecomputeLocked(VersionId v) {
  if (!NeedsRecomputeLocked(v)) return;
  TaskId p = graph_.version(v).producer;
  Task& task = graph_.task(p);
  journal_->reused[p] = false;
  --stats_.done;
  --stats_.reused;
  task.state = TaskState::kWaiting;
  const FileAccess* acc = graph_.accesses(p);
  for (uint32_t i = 0; i < task.num_files; ++i) {
    if (acc[i].out != kNoVersion)
      graph_.version(acc[i].out).state = VersionState::kPending;
  }
  // MarkDone released its inputs; it reads them again, and those without
  // data are made first.
  for (uint32_t i = 0; i < task.num_files; ++i) {
    if (acc[i].in == kNoVersion) continue;
    graph_.AddReader(acc[i].in);
    RecomputeLocked(acc[i].in);
    // Submitted waiting, it may still be on the input's list.
    graph_.RemoveWaiting(acc[i].in, p);
  }
  RequeueLocked(p);
}

void Engine::RecoverFinalVersionsLocked(MutexLock& lock) {
  if (!journal_->resuming) return;
  bool any = false;
  for (FileId f = 0; f < files_.size(); ++f) {
    uint32_t latest = files_.latest(f);
    if (latest == FileTable::kNone || !NeedsRecomputeLocked(latest)) continue;
    RecomputeLocked(latest);
    any = true;
  }
  if (!any) return;
  WakeLocked();
  ++waiters_;
  finished_cv_.wait(lock, [&] { return AllFinishedLocked(); });
  --waiters_;
}

Status Engine::RecoverCollectedLocked(MutexLock& lock, VersionId v) {
  if (!journal_->resuming || !NeedsRecomputeLocked(v)) return Status::Ok();
  RecomputeLocked(v);
  WakeLocked();
  return WaitVersionLocked(lock, v,
                           files_.path(graph_.version(v).file).c_str());
}

}  // namespace gs
