#include "runtime/engine/result_cache.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <utility>

#include "runtime/base/asio_clock.h"
#include "runtime/base/hashing.h"
#include "runtime/history/history.h"
#include "runtime/history/journal.h"

namespace gs {

namespace {

// Said for at most this many tasks a run; then a count.
constexpr size_t kMaxExplained = 50;
// Entries are written in one transaction when this many wait, or when the
// oldest has waited this long.
constexpr size_t kRecordBatch = 4096;
constexpr Seconds kRecordDelay = 5;
// Held tasks one step checks; then it yields to the engine's other work
// (the scheduling rounds that send the tasks it released) and goes on in
// the next step.
constexpr size_t kStepTasks = 256;

// An identity equal to nothing recorded: its readers are never reused.
std::string UnreadableId() {
  static std::atomic<uint64_t> n{0};
  return "s:unreadable:" + std::to_string(::getpid()) + ":" +
         std::to_string(++n);
}

}  // namespace

ResultCache::ResultCache(Setup setup, std::unique_ptr<Site> site)
    : env_(std::move(setup)), site_(std::move(site)), store_(env_.store_dir) {}

bool ResultCache::Hold(TaskId t) {
  if (checked_.size() <= t)
    checked_.resize(std::max<size_t>(t + 1, env_.graph->num_tasks()));
  if (checked_[t]) return false;
  checked_[t] = true;
  const Task& task = env_.graph->task(t);
  if (env_.never_reuse.count((*env_.ops)[task.op].name)) return false;
  held_.push_back(t);
  RequestStep();
  return true;
}

void ResultCache::Adopted(TaskId t) {
  if (checked_.size() <= t)
    checked_.resize(std::max<size_t>(t + 1, env_.graph->num_tasks()));
  checked_[t] = true;
  const Task& task = env_.graph->task(t);
  if (env_.never_reuse.count((*env_.ops)[task.op].name)) return;
  Adoption& a = adopted_[t];
  // Copied now: the master takes a synchronous task's results away.
  if (auto r = env_.results->find(t); r != env_.results->end())
    a.results = r->second;
  a.finished = env_.clock->Now();
  held_.push_back(t);
  RequestStep();
}

void ResultCache::Finished(TaskId t) {
  auto it = running_.find(t);
  if (it != running_.end()) {
    auto r = env_.results->find(t);
    // Copied now: the master takes the results away.
    if (r != env_.results->end()) it->second.results = r->second;
    it->second.finished = env_.clock->Now();
  }
  finished_.push_back(t);
  RequestStep();
}

void ResultCache::Fetched(VersionId v, bool ok) {
  fetching_.erase(v);
  if (!ok) unknowable_.insert(v);
  RequestStep();
}

void ResultCache::RequestStep() {
  if (!std::exchange(step_posted_, true)) site_->PostStep();
}

bool ResultCache::Idle() const {
  return held_.empty() && finished_.empty() && fetching_.empty();
}

std::string ResultCache::IdentityOf(VersionId v) const {
  auto it = ids_.find(v);
  return it == ids_.end() ? "" : it->second;
}

std::string ResultCache::UserPath(const std::string& path) const {
  const std::string& cwd = env_.cwd;
  if (!cwd.empty() && path.size() > cwd.size() + 1 &&
      path.compare(0, cwd.size(), cwd) == 0 && path[cwd.size()] == '/')
    return path.substr(cwd.size() + 1);
  return path;
}

const std::string& ResultCache::CodeOf(OpId op) {
  if (code_of_op_.size() <= op) code_of_op_.resize(op + 1);
  std::string& code = code_of_op_[op];
  if (code.empty()) code = env_.code.Of((*env_.ops)[op].name);
  return code;
}

ReuseEntry ResultCache::EntryOf(TaskId t) {
  const TaskGraph& graph = *env_.graph;
  const Task& task = graph.task(t);
  const FileAccess* acc = graph.accesses(t);
  ReuseEntry e;
  e.operation = (*env_.ops)[task.op].name;
  e.worker = CodeOf(task.op);
  e.scalars = ScalarsId(graph.scalars(t));
  for (uint32_t i = 0; i < task.num_files; ++i) {
    if (acc[i].in != kNoVersion) {
      const Version& v = graph.version(acc[i].in);
      e.inputs.push_back(
          {i, UserPath(env_.files->path(v.file)), IdentityOf(acc[i].in)});
    }
    if (acc[i].out != kNoVersion) {
      const Version& v = graph.version(acc[i].out);
      e.outputs.push_back({i, UserPath(env_.files->path(v.file)), "", 0, 0});
    }
  }
  e.key = ReuseKeyOf(e);
  e.call = ReuseCallOf(e);
  e.run = env_.run;
  e.task = t;
  return e;
}

bool ResultCache::Step(Mutex& mu) {
  {
    MutexLock lock(&mu);
    step_posted_ = false;
  }
  bool did = false;
  // One pass: stores, hashes, decides for at most kStepTasks held tasks;
  // when it made progress and more is left, another step is posted.
  do {
    std::vector<ToStore> stores;
    std::vector<ToHash> to_hash;
    std::vector<TaskId> batch;
    {
      MutexLock lock(&mu);
      if (held_.size() <= kStepTasks) {
        batch.swap(held_);
      } else {
        batch.assign(held_.begin(), held_.begin() + kStepTasks);
        held_.erase(held_.begin(), held_.begin() + kStepTasks);
      }
      const TaskGraph& graph = *env_.graph;
      std::unordered_set<VersionId> being_stored;
      for (TaskId t : finished_) {
        const Task& task = graph.task(t);
        const FileAccess* acc = graph.accesses(t);
        for (uint32_t i = 0; i < task.num_files; ++i) {
          VersionId v = acc[i].out;
          // Known as an input only (an adopted task's reader hashed it):
          // stored all the same.
          if (v == kNoVersion || in_store_.count(v) || unknowable_.count(v) ||
              fetching_.count(v) || !being_stored.insert(v).second)
            continue;
          if (site_->OnMaster(v)) {
            stores.push_back({t, v, site_->VersionPath(v), {}, false});
          } else {
            fetches_.push_back(v);
            fetching_.insert(v);
          }
        }
      }
      std::unordered_set<VersionId> hashing;
      for (TaskId t : batch) {
        const Task& task = graph.task(t);
        const FileAccess* acc = graph.accesses(t);
        for (uint32_t i = 0; i < task.num_files; ++i) {
          VersionId v = acc[i].in;
          if (v == kNoVersion || ids_.count(v) || unknowable_.count(v) ||
              fetching_.count(v) || being_stored.count(v) ||
              !hashing.insert(v).second)
            continue;
          if (graph.version(v).producer == kMasterTask || site_->OnMaster(v)) {
            const Version& ver = graph.version(v);
            to_hash.push_back({v, site_->VersionPath(v),
                               ver.number == 0 && ver.producer == kMasterTask,
                               ""});
          } else {
            // Made on another host by a task this cache did not see finish
            // (a resumed run's): its bytes come to the master first.
            fetches_.push_back(v);
            fetching_.insert(v);
          }
        }
      }
    }
    // Outside the lock: the files are written and nobody changes them.
    for (ToStore& s : stores) {
      StatusOr<StoredFile> put = store_.Put(s.path);
      if (put.ok()) {
        s.stored = std::move(put).value();
        s.ok = true;
        stored_bytes_ += static_cast<uint64_t>(s.stored.size);
      } else {
        Sayf(*env_.messages, MessageKind::kWarning,
             "gsrt: warning: reuse: cannot keep %s in the store: %s\n",
             s.path.c_str(), put.status().message().c_str());
      }
    }
    for (ToHash& h : to_hash) h.id = IdentifyInput(h);

    std::vector<ReuseEntry> records;
    std::vector<Candidate> candidates;
    int adopted_done = 0;
    {
      MutexLock lock(&mu);
      const TaskGraph& graph = *env_.graph;
      for (const ToStore& s : stores) {
        if (s.ok) {
          ids_[s.v] = s.stored.content;
          stored_[s.v] = s.stored;
          in_store_.insert(s.v);
        } else {
          unknowable_.insert(s.v);
        }
      }
      for (ToHash& h : to_hash) {
        ids_[h.v] = h.id;
        if (!h.journal_id.empty()) journal_ids_[h.v] = std::move(h.journal_id);
      }
      // Finished tasks whose outputs are all stored: their entries.
      std::vector<TaskId> still;
      for (TaskId t : finished_) {
        const Task& task = graph.task(t);
        const FileAccess* acc = graph.accesses(t);
        bool waiting = false, lost = false;
        for (uint32_t i = 0; i < task.num_files; ++i) {
          VersionId v = acc[i].out;
          if (v == kNoVersion) continue;
          waiting |= fetching_.count(v) > 0 ||
                     (!ids_.count(v) && !unknowable_.count(v));
          lost |= unknowable_.count(v) > 0;
        }
        if (waiting) {
          still.push_back(t);
          continue;
        }
        auto it = running_.find(t);
        if (it != running_.end()) {
          ReuseEntry e = std::move(it->second);
          running_.erase(it);
          // Its files as stored (a task rewound and run again finds its
          // outputs known from the first time, not stored again: no entry).
          bool complete = !lost;
          for (ReuseOutput& o : e.outputs) {
            auto s = stored_.find(acc[o.param].out);
            if (s == stored_.end()) {
              complete = false;
              break;
            }
            o.content = s->second.content;
            o.size = s->second.size;
            o.mtime_ns = s->second.mtime_ns;
          }
          if (complete) records.push_back(std::move(e));
        }
        for (uint32_t i = 0; i < task.num_files; ++i) {
          if (acc[i].out != kNoVersion) stored_.erase(acc[i].out);
        }
      }
      finished_.swap(still);
      // Held tasks whose inputs are all known: their keys.
      std::vector<TaskId> waiting_held;
      for (TaskId t : batch) {
        const Task& task = graph.task(t);
        const FileAccess* acc = graph.accesses(t);
        bool known = true, unknown = false;
        for (uint32_t i = 0; i < task.num_files; ++i) {
          VersionId v = acc[i].in;
          if (v == kNoVersion) continue;
          if (unknowable_.count(v)) {
            unknown = true;
          } else if (!ids_.count(v)) {
            known = false;
          }
        }
        if (!known) {
          waiting_held.push_back(t);
        } else if (auto a = adopted_.find(t); a != adopted_.end()) {
          // Resumed from the journal: done already. With its inputs known
          // its entry is made as for a task that ran: its outputs go to
          // the store, and the entry is recorded once they are there.
          if (!unknown) {
            ReuseEntry e = EntryOf(t);
            e.results = std::move(a->second.results);
            e.finished = a->second.finished;
            running_[t] = std::move(e);
            finished_.push_back(t);
            ++adopted_done;
          }
          adopted_.erase(a);
        } else if (unknown) {
          site_->Release(t);  // runs, and records nothing
        } else {
          Candidate c{t, EntryOf(t), {}, false, {}};
          for (const ReuseOutput& o : c.now.outputs)
            c.output_paths.push_back(site_->VersionPath(acc[o.param].out));
          candidates.push_back(std::move(c));
        }
      }
      held_.insert(held_.end(), waiting_held.begin(), waiting_held.end());
    }
    if (stores.empty() && to_hash.empty() && records.empty() &&
        candidates.empty() && adopted_done == 0)
      break;
    did = true;

    // Outside the lock: the history and the store.
    const Seconds now = env_.clock->Now();
    for (ReuseEntry& r : records) {
      if (to_record_.empty()) oldest_to_record_ = now;
      to_record_.push_back(std::move(r));
    }
    if (to_record_.size() >= kRecordBatch ||
        (!to_record_.empty() && now - oldest_to_record_ >= kRecordDelay))
      WriteRecords();
    for (Candidate& c : candidates) {
      LookUp(c);
      if (c.hit) {
        used_keys_.push_back(c.now.key);
      } else if (env_.explain && explained_++ < kMaxExplained) {
        Explain(c);
      }
    }

    {
      MutexLock lock(&mu);
      for (Candidate& c : candidates) {
        if (c.hit) {
          ReuseLocked(c);
        } else {
          running_[c.task] = std::move(c.now);
          site_->Release(c.task);
        }
      }
    }
  } while (false);
  std::vector<VersionId> fetches;
  {
    MutexLock lock(&mu);
    fetches.swap(fetches_);
    if (did && (!held_.empty() || !finished_.empty())) RequestStep();
    if (Idle()) site_->Settled();
  }
  for (VersionId v : fetches) site_->Fetch(v);
  return did;
}

namespace {

// The first 16 hex digits of a key (ReuseKeyOf), as a number.
uint64_t KeyPrefix(std::string_view key) {
  uint64_t prefix = 0;
  for (size_t i = 0; i < 16 && i < key.size(); ++i) {
    const int digit = HexDigitValue(key[i]);
    prefix = prefix << 4 | static_cast<uint64_t>(digit < 0 ? 0 : digit);
  }
  return prefix;
}

}  // namespace

void ResultCache::LookUp(Candidate& c) {
  if (!known_keys_.loaded) {
    known_keys_.loaded = true;
    auto keys = env_.history->LoadReuseKeys();
    if (keys.ok()) {
      known_keys_.prefixes.reserve(keys->size());
      for (const std::string& key : *keys)
        known_keys_.prefixes.insert(KeyPrefix(key));
    } else {
      known_keys_.loaded = false;  // asked again next time
    }
  }
  if (known_keys_.loaded && !known_keys_.prefixes.count(KeyPrefix(c.now.key)))
    return;
  auto found = env_.history->FindReuse(c.now.key);
  if (!found.ok() || !found->has_value()) return;
  const ReuseEntry& f = **found;
  if (f.outputs.size() != c.now.outputs.size()) return;
  for (size_t k = 0; k < f.outputs.size(); ++k) {
    if (f.outputs[k].param != c.now.outputs[k].param ||
        !store_.Holds(f.outputs[k]))
      return;
  }
  for (size_t k = 0; k < f.outputs.size(); ++k) {
    if (!store_.Materialize(f.outputs[k].content, c.output_paths[k]).ok())
      return;
  }
  c.hit = true;
  c.found = std::move(found).value().value();
}

void ResultCache::Explain(const Candidate& c) {
  std::string why = "no earlier run made it";
  auto before = env_.history->FindReuseByCall(c.now.call);
  if (before.ok() && before->has_value()) {
    why = ExplainMiss(**before, c.now);
    if (why.empty()) why = "its earlier results are no longer in the store";
  }
  Sayf(*env_.messages, MessageKind::kInfo,
       "gsrt: reuse: task %llu (%s) runs: %s\n",
       static_cast<unsigned long long>(c.task), c.now.operation.c_str(),
       why.c_str());
}

void ResultCache::ReuseLocked(Candidate& c) {
  TaskGraph& graph = *env_.graph;
  const Task& task = graph.task(c.task);
  const FileAccess* acc = graph.accesses(c.task);
  for (const ReuseOutput& o : c.found.outputs) {
    VersionId v = acc[o.param].out;
    ids_[v] = o.content;
    in_store_.insert(v);
    site_->Placed(v, static_cast<uint64_t>(o.size));
  }
  if ((*env_.ops)[task.op].synchronous)
    (*env_.results)[c.task] = c.found.results;
  std::vector<TaskId> ready;
  graph.MarkDone(c.task, &ready);
  ++env_.stats->done;
  ++env_.stats->reused_earlier;
  site_->Reused(c.task, ready);
}

std::string ResultCache::JournalIdOf(VersionId v) const {
  auto it = journal_ids_.find(v);
  return it == journal_ids_.end() ? std::string() : it->second;
}

std::string ResultCache::IdentifyInput(ToHash& h) {
  const FileHash* cached = nullptr;
  if (h.user_file) {
    if (!file_hashes_.loaded) {
      file_hashes_.loaded = true;
      auto rows = env_.history->LoadFileHashes();
      if (rows.ok()) {
        for (FileHash& row : *rows) {
          std::string path = row.path;
          file_hashes_.by_path.emplace(std::move(path), std::move(row));
        }
      }
    }
    auto it = file_hashes_.by_path.find(h.path);
    if (it != file_hashes_.by_path.end()) cached = &it->second;
    // A file never hashed is read at once (no stat first).
    if (cached && CachedHashHolds(*cached, StampOf(h.path)))
      return cached->content;
  }
  const double hashed = WallClockNow();
  ResultStore::ReadFacts facts;
  StatusOr<StoredFile> id = ResultStore::Identify(h.path, &facts);
  if (!id.ok()) {
    if (id.status().code() != Status::Code::kNotFound) return UnreadableId();
    h.journal_id = MissingFileVersionId();
    return AbsentFileId();
  }
  h.journal_id = std::move(facts.journal_id);
  if (h.user_file) {
    // Stamped as it was opened: a change while it was read leaves another
    // stamp, and the next run reads it again.
    FileHash fh{h.path, facts.stamp, id->content, hashed};
    file_hashes_.by_path[h.path] = fh;
    file_hashes_.fresh.push_back(std::move(fh));
  }
  return id->content;
}

void ResultCache::WriteRecords() {
  if (Status s = env_.history->RecordFileHashes(file_hashes_.fresh); !s.ok()) {
    Sayf(*env_.messages, MessageKind::kWarning,
         "gsrt: warning: reuse: history: %s\n", s.message().c_str());
  }
  file_hashes_.fresh.clear();
  for (const ReuseEntry& e : to_record_)
    known_keys_.prefixes.insert(KeyPrefix(e.key));
  Status s = env_.history->RecordReuse(to_record_);
  if (!s.ok()) {
    Sayf(*env_.messages, MessageKind::kWarning,
         "gsrt: warning: reuse: cannot record %zu results in the history: "
         "%s\n",
         to_record_.size(), s.message().c_str());
  }
  to_record_.clear();
}

void ResultCache::End() {
  WriteRecords();
  if (Status s = env_.history->TouchReuse(used_keys_, env_.clock->Now());
      !s.ok()) {
    Sayf(*env_.messages, MessageKind::kWarning,
         "gsrt: warning: reuse: history: %s\n", s.message().c_str());
  }
  used_keys_.clear();
  if (env_.explain && explained_ > kMaxExplained) {
    Sayf(*env_.messages, MessageKind::kInfo,
         "gsrt: reuse: and %zu more tasks ran (not said)\n",
         explained_ - kMaxExplained);
  }
  // Nothing new stored: the store is no bigger than at the last run's end.
  if (env_.limit == 0 || stored_bytes_ == 0) return;
  History& history = *env_.history;
  auto entries = history.LoadReuse();
  if (!entries.ok()) return;
  StoreCollection plan =
      PlanStoreCollection(*entries, store_.List(), env_.limit);
  for (const std::string& key : plan.drop_keys) (void)history.DeleteReuse(key);
  (void)history.Flush();
  for (const std::string& content : plan.remove_contents)
    (void)store_.Remove(content);
}

}  // namespace gs
