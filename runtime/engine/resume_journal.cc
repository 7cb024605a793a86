#include "runtime/engine/resume_journal.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>

#include "runtime/base/hashing.h"
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

ResumeJournal::ResumeJournal(Setup setup, std::unique_ptr<Site> site)
    : env_(std::move(setup)), site_(std::move(site)) {}

void ResumeJournal::LoadInterruptedRuns(const std::string& program,
                                        const std::string& cwd) {
  auto runs = env_.history->FindInterruptedRuns(program, cwd, env_.run);
  if (!runs.ok()) {
    Sayf(*env_.messages, MessageKind::kWarning,
         "gsrt: warning: cannot read the journal: %s\n",
         runs.status().message().c_str());
    return;
  }
  for (RunId run : *runs) {
    auto entries = env_.history->LoadJournal(run);
    if (!entries.ok()) {
      Sayf(*env_.messages, MessageKind::kWarning,
           "gsrt: warning: cannot resume from run %lld: %s\n",
           static_cast<long long>(run), entries.status().message().c_str());
      break;  // older runs could hold data a newer one overwrote
    }
    index_.AddRun(std::move(entries).value());
    interrupted_.push_back(run);
  }
  resuming_ = !index_.empty();
  if (resuming_) {
    Sayf(*env_.messages, MessageKind::kInfo,
         "gsrt: resuming: %zu finished tasks journaled by %zu "
         "interrupted run(s), the newest run %lld\n",
         index_.size(), interrupted_.size(),
         static_cast<long long>(interrupted_.front()));
  }
  // After every journal: a job whose task finished is not taken over.
  for (RunId run : interrupted_) LoadQueuedJobs(run);
}

void ResumeJournal::LoadQueuedJobs(RunId run) {
  auto entries = env_.history->LoadQueuedJobs(run);
  if (!entries.ok()) {
    Sayf(*env_.messages, MessageKind::kWarning,
         "gsrt: warning: cannot read the batch jobs of run %lld: %s\n",
         static_cast<long long>(run), entries.status().message().c_str());
    return;
  }
  size_t open = 0;
  for (QueuedJobEntry& e : *entries) {
    if (e.signature.empty()) {  // a pilot: its agent serves nobody now
      forget_.push_back(std::move(e));
      continue;
    }
    // Finished and journaled: nothing to take over (its record was read);
    // forgotten, so that its batch directory goes with this run (the
    // cancel of a job that left the queue does nothing).
    if (index_.Find(e.signature, e.outputs) != nullptr) {
      forget_.push_back(std::move(e));
      continue;
    }
    std::string key = QueuedJobKey(e.signature, e.outputs);
    // Runs come newest first: a newer run's job (or its take-over) wins.
    if (queued_.count(key)) continue;
    queued_.emplace(std::move(key), std::move(e));
    ++open;
  }
  if (open > 0) {
    Sayf(*env_.messages, MessageKind::kInfo,
         "gsrt: resuming: %zu batch jobs of run %lld may still be "
         "queued or running; they are taken over, not run again\n",
         open, static_cast<long long>(run));
  }
}

std::vector<ResumeFetch> ResumeJournal::ResumeFetches() {
  std::vector<ResumeFetch> wants;
  const size_t num_hosts = site_->NumHosts();
  index_.ForEach([&](const JournalEntry& e) {
    for (const JournalOutput& o : e.outputs) {
      if (o.host.empty() || o.gone) continue;
      std::string key = FetchKey(o.host, o.file);
      if (fetched_.count(key)) continue;
      std::string master_path = env_.work_dir + "/data/" + o.file;
      FileFacts here = FactsOf(env_.fs->Stat(master_path));
      if (here.exists && (o.size < 0 || o.size == here.size)) {
        fetched_[key] = kNoHost;
        continue;
      }
      for (HostId h = 0; h < num_hosts; ++h) {
        HostView host = site_->Host(h);
        if (host.name != o.host || host.shared || !host.usable) continue;
        fetched_[key] = kNoHost;  // placeholder: deduplicates
        wants.push_back({h, key, host.data_dir + "/" + o.file, master_path});
      }
    }
  });
  for (const ResumeFetch& w : wants) fetched_.erase(w.key);
  return wants;
}

void ResumeJournal::ReportFetched(const std::vector<ResumeFetch>& wants,
                                  bool all) {
  size_t got = 0;
  for (const ResumeFetch& w : wants) got += fetched_.count(w.key);
  Sayf(*env_.messages, MessageKind::kInfo,
       "gsrt: resuming: fetched %zu of %zu outputs the interrupted "
       "run left on other hosts%s\n",
       got, wants.size(), all ? "" : " (gave up waiting for the rest)");
}

std::vector<std::pair<HostId, std::string>> ResumeJournal::FetchedCopies()
    const {
  std::vector<std::pair<HostId, std::string>> copies;
  for (const auto& [key, host] : fetched_) {
    if (host == kNoHost) continue;
    copies.emplace_back(host, key.substr(key.find('\n') + 1));
  }
  return copies;
}

std::string ResumeJournal::ContentIdOfFile(const std::string& path) {
  ContentHash hash;
  Status s = env_.fs->Read(path, [&](std::string_view c) { hash.Update(c); });
  if (s.code() == Status::Code::kNotFound) return MissingFileVersionId();
  if (!s.ok()) {
    // Never equal to anything journaled: the task cannot be reused.
    static std::atomic<uint64_t> unreadable{0};
    return "c:unreadable:" + std::to_string(::getpid()) + ":" +
           std::to_string(++unreadable);
  }
  return ContentVersionId(hash.Digest(), hash.size());
}

std::string ResumeJournal::VersionIdentity(VersionId v) {
  const TaskGraph& graph = *env_.graph;
  const Version& ver = graph.version(v);
  if (ver.producer == kMasterTask) {
    auto it = content_ids_.find(v);
    // "" while Write hashes it outside the lock.
    if (it != content_ids_.end() && !it->second.empty()) return it->second;
    if (std::string known = site_->KnownContentId(v); !known.empty()) {
      content_ids_[v] = known;
      return known;
    }
    // Usually hashed outside the lock (Write); resuming needs it now.
    std::string id = ContentIdOfFile(site_->VersionPath(v));
    content_ids_[v] = id;
    return id;
  }
  const Task& task = graph.task(ver.producer);
  const FileAccess* acc = graph.accesses(ver.producer);
  uint32_t position = 0;
  while (position < task.num_files && acc[position].out != v) ++position;
  return ProducedVersionId(Signature(ver.producer), position);
}

std::string ResumeJournal::Signature(TaskId t) {
  const TaskGraph& graph = *env_.graph;
  auto& sigs = signatures_;
  if (sigs.size() <= t) sigs.resize(graph.num_tasks(), {});
  if (sigs[t][0] != 0) return std::string(sigs[t].data(), sigs[t].size());
  const Task& task = graph.task(t);
  SignatureBuilder sig((*env_.ops)[task.op].name, graph.scalars(t));
  const FileAccess* acc = graph.accesses(t);
  for (uint32_t i = 0; i < task.num_files; ++i) {
    std::string input =
        acc[i].in == kNoVersion ? "" : VersionIdentity(acc[i].in);
    std::string_view output = acc[i].out == kNoVersion
                                  ? std::string_view()
                                  : std::string_view(env_.files->path(
                                        graph.version(acc[i].out).file));
    sig.AddFile(i, input, output);
  }
  std::string hex = sig.Finish();
  // Computing the inputs' identities may have grown the vector.
  std::copy_n(hex.data(), signatures_[t].size(), signatures_[t].data());
  return hex;
}

std::vector<std::string> ResumeJournal::OutputFileNames(TaskId t) const {
  const Task& task = env_.graph->task(t);
  const FileAccess* acc = env_.graph->accesses(t);
  std::vector<std::string> outputs;
  for (uint32_t i = 0; i < task.num_files; ++i) {
    if (acc[i].out != kNoVersion)
      outputs.push_back(site_->VersionFileName(acc[i].out));
  }
  return outputs;
}

void ResumeJournal::Finished(TaskId t) {
  if (t < reused_.size() && reused_[t]) {
    // Reused, then rewound (a host or copy lost) and run after all.
    reused_[t] = false;
    --env_.stats->reused;
  }
  const std::vector<HostId>& task_host = *env_.task_host;
  HostId host = t < task_host.size() ? task_host[t] : kNoHost;
  auto r = env_.results->find(t);
  finished_.push_back(
      {t, host, env_.clock->Now(), r == env_.results->end() ? "" : r->second});
}

void ResumeJournal::TakeCollected(std::vector<std::string>* paths,
                                  std::vector<VersionId>* remote) {
  for (VersionId v : collected_) {
    Version& ver = env_.graph->version(v);
    // Still garbage? A rewind (host loss, recompute) may need it again.
    if (ver.readers != 0 || ver.state != VersionState::kAvailable ||
        env_.files->latest(ver.file) == v)
      continue;
    if (ver.on_master) paths->push_back(site_->VersionPath(v));
    ver.on_master = false;
    site_->TransfersChanged();
    if (site_->HasRemoteCopy(v)) remote->push_back(v);
  }
  collected_.clear();
}

std::optional<QueuedJob> ResumeJournal::TakeOver(TaskId t,
                                                 const std::string& host) {
  if (queued_.empty()) return std::nullopt;
  auto it = queued_.find(QueuedJobKey(Signature(t), OutputFileNames(t)));
  if (it == queued_.end()) return std::nullopt;
  QueuedJobEntry e = std::move(it->second);
  queued_.erase(it);
  if (e.host != host) {
    // Placed elsewhere this time: the old job must not write the same
    // files as well.
    forget_.push_back(std::move(e));
    return std::nullopt;
  }
  // Counted when the adapter records it as taken over (WriteQueuedJobs):
  // it may void the job's claim and submit it afresh instead.
  return std::move(e.job);
}

std::vector<QueuedJobEntry> ResumeJournal::TakeJobsToForget(bool all) {
  std::vector<QueuedJobEntry> forget;
  forget.swap(forget_);
  if (all) {
    for (auto& [key, e] : queued_) forget.push_back(std::move(e));
    queued_.clear();
  }
  return forget;
}

void ResumeJournal::RecordSubmissions(Mutex& mu, const std::string& host,
                                      const std::vector<QueuedJob>& jobs) {
  std::vector<QueuedJobEntry> rows;
  for (const QueuedJob& j : jobs) {
    QueuedJobEntry e;
    e.run = env_.run;
    e.host = host;
    e.job = j;
    rows.push_back(std::move(e));
  }
  // Committed before the adapter submits: that is the point.
  WriteQueuedJobs(mu, std::move(rows), /*commit=*/true);
}

void ResumeJournal::RecordStillQueued(Mutex& mu) {
  std::vector<QueuedJobEntry> rows;
  std::vector<RunId> runs;
  {
    MutexLock lock(&mu);
    for (auto& [key, e] : queued_) rows.push_back(std::move(e));
    for (QueuedJobEntry& e : forget_) rows.push_back(std::move(e));
    queued_.clear();
    forget_.clear();
    runs = interrupted_;
  }
  runs.push_back(env_.run);
  Status s;
  for (RunId run : runs) {
    if (s.ok()) s = env_.history->DeleteQueuedJobs(run);
  }
  // Kept with the signatures their own run recorded.
  for (QueuedJobEntry& e : rows) {
    e.run = env_.run;
    if (s.ok()) s = env_.history->RecordQueuedJob(e);
  }
  if (s.ok()) s = env_.history->Flush();
  if (!s.ok()) {
    Sayf(*env_.messages, MessageKind::kWarning, "gsrt: warning: history: %s\n",
         s.message().c_str());
  }
}

void ResumeJournal::WriteQueuedJobs(Mutex& mu, std::vector<QueuedJobEntry> rows,
                                    bool commit) {
  {
    MutexLock lock(&mu);
    for (QueuedJobEntry& e : rows) {
      if (e.job.job == 0 || e.job.task >= env_.graph->num_tasks()) continue;
      e.signature = Signature(e.job.task);
      e.outputs = OutputFileNames(e.job.task);
      // The summary counts what the history records: one per batch job
      // the adapter took over (a job lost after that and run again is
      // still one taken over).
      if (e.job.adopted && !e.job.batch_id.empty() &&
          taken_over_.insert(e.host + '\n' + e.job.batch_id).second)
        ++env_.stats->adopted;
    }
  }
  for (const QueuedJobEntry& e : rows) {
    if (Status s = env_.history->RecordQueuedJob(e); !s.ok()) {
      Sayf(*env_.messages, MessageKind::kWarning,
           "gsrt: warning: history: %s\n", s.message().c_str());
      return;
    }
  }
  if (commit) (void)env_.history->Flush();
}

// --- Reuse and recompute ---

bool ResumeJournal::ResumeSubmitted(TaskId t) {
  TaskGraph& graph = *env_.graph;
  Task& task = graph.task(t);
  if (task.state == TaskState::kFutile) return false;
  const FileAccess* acc = graph.accesses(t);
  std::vector<std::string> outputs = OutputFileNames(t);
  if (const JournalEntry* e = index_.Find(Signature(t), outputs)) {
    if (e->worker == env_.worker_identity) {
      ReuseTask(t, *e);
      return true;
    }
    // Same call, but computed by other code: the functions changed.
    ++env_.stats->rerun_changed;
  }
  // The task runs: inputs that were adopted without data are made again.
  bool recompute = false;
  for (uint32_t i = 0; i < task.num_files; ++i) {
    if (acc[i].in == kNoVersion || !NeedsRecompute(acc[i].in)) continue;
    Recompute(acc[i].in);
    recompute = true;
  }
  if (!recompute) return false;
  for (uint32_t i = 0; i < task.num_files; ++i) {
    if (acc[i].in != kNoVersion) graph.RemoveWaiting(acc[i].in, t);
  }
  site_->Requeue(t);
  site_->Wake();
  return true;
}

void ResumeJournal::ReuseTask(TaskId t, const JournalEntry& from) {
  TaskGraph& graph = *env_.graph;
  Task& task = graph.task(t);
  const FileAccess* acc = graph.accesses(t);
  JournalEntry mine;
  mine.run = env_.run;
  mine.task = t;
  mine.signature = from.signature;
  mine.operation = from.operation;
  mine.finished = env_.clock->Now();
  mine.results = from.results;
  mine.reused_from = from.reused_from != 0 ? from.reused_from : from.run;
  mine.worker = from.worker;
  // Find() matched the output file names in parameter order.
  std::vector<uint32_t> positions;
  for (uint32_t i = 0; i < task.num_files; ++i) {
    if (acc[i].out != kNoVersion) positions.push_back(i);
  }
  for (size_t k = 0; k < from.outputs.size(); ++k) {
    JournalOutput rec = AdoptOutput(acc[positions[k]].out, from.outputs[k]);
    rec.param = positions[k];
    mine.outputs.push_back(std::move(rec));
  }
  if ((*env_.ops)[task.op].synchronous) (*env_.results)[t] = from.results;
  if (reused_.size() <= t) reused_.resize(t + 1);
  reused_[t] = true;
  // Whatever waits for inputs does not matter: the outputs exist already.
  std::vector<TaskId> ready;
  graph.MarkDone(t, &ready);
  ++env_.stats->done;
  ++env_.stats->reused;
  site_->Ready(ready);
  entries_.push_back(std::move(mine));
  site_->Resumed(t);
  site_->NotifyWaiters();
}

JournalOutput ResumeJournal::AdoptOutput(VersionId v, const JournalOutput& o) {
  Version& ver = env_.graph->version(v);
  FileFacts found = FactsOf(env_.fs->Stat(site_->VersionPath(v)));
  bool ok;
  HostId from_host = kNoHost;
  if (o.host.empty()) {
    ok = SameOutput(o, found);
  } else {
    auto it = fetched_.find(FetchKey(o.host, o.file));
    ok = it != fetched_.end() && !o.gone && found.exists &&
         (o.size < 0 || o.size == found.size);
    if (ok) from_host = it->second;
  }
  // Without data the version is "collected": fine unless needed again.
  ver.on_master = ok;
  site_->TransfersChanged();
  if (ok) {
    ver.size = static_cast<uint64_t>(found.size);
    if (from_host != kNoHost) site_->SetOnlyCopy(v, from_host);
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

bool ResumeJournal::NeedsRecompute(VersionId v) const {
  const Version& ver = env_.graph->version(v);
  if (ver.state != VersionState::kAvailable || ver.number == 0 ||
      ver.on_master || ver.producer == kMasterTask)
    return false;
  if (site_->HasRemoteCopy(v)) return false;
  return ver.producer < reused_.size() && reused_[ver.producer];
}

void ResumeJournal::Recompute(VersionId v) {
  if (!NeedsRecompute(v)) return;
  TaskGraph& graph = *env_.graph;
  TaskId p = graph.version(v).producer;
  Task& task = graph.task(p);
  reused_[p] = false;
  --env_.stats->done;
  --env_.stats->reused;
  task.state = TaskState::kWaiting;
  const FileAccess* acc = graph.accesses(p);
  for (uint32_t i = 0; i < task.num_files; ++i) {
    if (acc[i].out != kNoVersion)
      graph.version(acc[i].out).state = VersionState::kPending;
  }
  // MarkDone released its inputs; it reads them again, and those without
  // data are made first.
  for (uint32_t i = 0; i < task.num_files; ++i) {
    if (acc[i].in == kNoVersion) continue;
    graph.AddReader(acc[i].in);
    Recompute(acc[i].in);
    // Submitted waiting, it may still be on the input's list.
    graph.RemoveWaiting(acc[i].in, p);
  }
  site_->Requeue(p);
}

bool ResumeJournal::RecomputeFinalVersions() {
  if (!resuming_) return false;
  const FileTable& files = *env_.files;
  bool any = false;
  for (FileId f = 0; f < files.size(); ++f) {
    uint32_t latest = files.latest(f);
    if (latest == FileTable::kNone || !NeedsRecompute(latest)) continue;
    Recompute(latest);
    any = true;
  }
  return any;
}

// --- Writing the journal ---

void ResumeJournal::Write(Mutex& mu) {
  // 1. What to hash: versions the master provides that the finished tasks
  // read. Their data outlives this call: version 0 is the user's file, and
  // collected versions are deleted only after the next commit.
  Batch batch;
  {
    MutexLock lock(&mu);
    TakeBatch(&batch);
  }
  if (batch.finished.empty() && batch.entries.empty()) return;
  for (auto& [v, path] : batch.to_hash) path = ContentIdOfFile(path);
  // 2. The entries, with the paths of outputs on the master to stat.
  {
    MutexLock lock(&mu);
    for (auto& [v, id] : batch.to_hash) content_ids_[v] = id;
    MakeEntries(&batch);
  }
  // 3. Size, time and inode of outputs on the master: a later resume
  // adopts exactly these files.
  StatOutputs(&batch);
  RecordEntries(batch);
}

void ResumeJournal::TakeBatch(Batch* batch) {
  const TaskGraph& graph = *env_.graph;
  batch->finished.swap(finished_);
  batch->entries.swap(entries_);
  for (const Finish& f : batch->finished) {
    const Task& task = graph.task(f.task);
    const FileAccess* acc = graph.accesses(f.task);
    for (uint32_t i = 0; i < task.num_files; ++i) {
      VersionId v = acc[i].in;
      if (v == kNoVersion || graph.version(v).producer != kMasterTask ||
          content_ids_.count(v))
        continue;
      if (std::string known = site_->KnownContentId(v); !known.empty()) {
        content_ids_.emplace(v, std::move(known));
        continue;
      }
      content_ids_.emplace(v, "");  // being hashed
      batch->to_hash.emplace_back(v, site_->VersionPath(v));
    }
  }
}

void ResumeJournal::MakeEntries(Batch* batch) {
  const TaskGraph& graph = *env_.graph;
  for (const Finish& f : batch->finished) {
    const Task& task = graph.task(f.task);
    const FileAccess* acc = graph.accesses(f.task);
    JournalEntry e;
    e.run = env_.run;
    e.task = f.task;
    e.signature = Signature(f.task);
    e.operation = (*env_.ops)[task.op].name;
    HostView host = f.host == kNoHost ? HostView() : site_->Host(f.host);
    bool shared = f.host == kNoHost || host.shared;
    e.host = host.name;
    e.finished = f.when;
    e.results = f.results;
    e.worker = env_.worker_identity;
    uint32_t outputs = 0;
    for (uint32_t i = 0; i < task.num_files; ++i)
      outputs += acc[i].out != kNoVersion;
    std::vector<std::string> stat_paths;
    for (uint32_t i = 0; i < task.num_files; ++i) {
      if (acc[i].out == kNoVersion) continue;
      JournalOutput o;
      o.param = i;
      o.file = site_->VersionFileName(acc[i].out);
      if (!shared) {
        o.host = e.host;
        // Adapters report the bytes of all outputs together (and some
        // report none: 0 says nothing).
        uint64_t size = graph.version(acc[i].out).size;
        if (outputs == 1 && size > 0) o.size = static_cast<int64_t>(size);
      }
      stat_paths.push_back(shared ? site_->VersionPath(acc[i].out) : "");
      e.outputs.push_back(std::move(o));
    }
    batch->stat_paths.push_back(std::move(stat_paths));
    batch->entries.push_back(std::move(e));
  }
}

void ResumeJournal::StatOutputs(Batch* batch) {
  // The finished tasks' entries come after the reused ones.
  const size_t first_new = batch->entries.size() - batch->stat_paths.size();
  for (size_t k = 0; k < batch->stat_paths.size(); ++k) {
    JournalEntry& e = batch->entries[first_new + k];
    for (size_t i = 0; i < e.outputs.size(); ++i) {
      if (batch->stat_paths[k][i].empty()) continue;
      FileFacts f = FactsOf(env_.fs->Stat(batch->stat_paths[k][i]));
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

void ResumeJournal::RecordEntries(const Batch& batch) {
  for (const JournalEntry& e : batch.entries) {
    Status s = env_.history->RecordTaskJournal(e);
    if (!s.ok()) {
      Sayf(*env_.messages, MessageKind::kWarning,
           "gsrt: warning: journal: %s\n", s.message().c_str());
      break;
    }
  }
}

}  // namespace gs
