// Results that last across runs (docs/reuse.md): the engine's side. With
// reuse on, every task that becomes ready is held here before the
// scheduler sees it: its key is computed from the content of what it
// reads (user files hashed, task outputs hashed when they were stored),
// and when an earlier run of this work dir left an entry of that key
// whose files the store still holds, the files are linked in place and
// the task is done without a job. Every task that ran has its outputs
// kept in the store (fetched to the master first when they were made on
// a host that does not share its files) and its entry recorded.
// Owned by the engine, which makes one only with a history and reuse on.
// Not locked by itself: each method says whether it runs under the
// engine's mutex or on the engine thread without it.
#ifndef GSRT_RUNTIME_ENGINE_RESULT_CACHE_H_
#define GSRT_RUNTIME_ENGINE_RESULT_CACHE_H_

#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "runtime/base/clock.h"
#include "runtime/base/messages.h"
#include "runtime/base/mutex.h"
#include "runtime/base/thread_annotations.h"
#include "runtime/engine/code_identity.h"
#include "runtime/engine/run_stats.h"
#include "runtime/graph/file_table.h"
#include "runtime/graph/operation_table.h"
#include "runtime/graph/task_graph.h"
#include "runtime/history/result_store.h"
#include "runtime/history/reuse_entry.h"

namespace gs {

class History;

class ResultCache {
 public:
  // What the cache asks of the engine; called under the engine's mutex.
  class Site {
   public:
    virtual ~Site() = default;
    virtual std::string VersionPath(VersionId v) const = 0;
    // Whether the master's data dir holds `v`'s data.
    virtual bool OnMaster(VersionId v) const = 0;
    // `task` was checked and must run: to the scheduler.
    virtual void Release(TaskId task) = 0;
    // `task` was done by reuse; `ready` became ready through it.
    virtual void Reused(TaskId task, const std::vector<TaskId>& ready) = 0;
    // `v`'s data was put in the master's data dir (`size` bytes).
    virtual void Placed(VersionId v, uint64_t size) = 0;
    // Post Step on the engine thread (once until it runs).
    virtual void PostStep() = 0;
    // Nothing is held or left to store: the run's end may go on.
    virtual void Settled() = 0;
    // Without the mutex, engine thread: copy `v` to the master's data dir,
    // then call Fetched.
    virtual void Fetch(VersionId v) = 0;
  };

  struct Setup {
    TaskGraph* graph = nullptr;
    const FileTable* files = nullptr;
    const OperationTable* ops = nullptr;
    RunStats* stats = nullptr;
    std::unordered_map<TaskId, std::string>* results = nullptr;
    MessageSink* messages = nullptr;
    History* history = nullptr;  // used without the mutex, engine thread
    Clock* clock = nullptr;
    RunId run = 0;
    std::string store_dir;
    // The master's working directory: paths under it are named relative
    // to it in keys, so that a project moved elsewhere keeps its results.
    std::string cwd;
    CodeIdentity code;  // its `of_operation` is called on the engine thread
    std::set<std::string> never_reuse;  // operations that always run
    bool explain = false;               // say why each task that ran had to
    uint64_t limit = 0;                 // store bytes kept at the end
  };

  ResultCache(Setup setup, std::unique_ptr<Site> site);
  ResultCache(const ResultCache&) = delete;
  ResultCache& operator=(const ResultCache&) = delete;

  // --- Under the engine's mutex. ---
  // A task became ready: true when it is held for a check (the caller
  // posts Step); false when it was checked already or always runs.
  bool Hold(TaskId task);
  // A task ran and finished: its outputs go to the store (post Step).
  void Finished(TaskId task);
  // A task done by resuming an interrupted run (the journal): once its
  // inputs are known, its entry is made as for Finished.
  void Adopted(TaskId task);
  // An output Site::Fetch was asked for came (`ok`) or could not.
  void Fetched(VersionId v, bool ok);
  // Nothing held, nothing to store, no fetch out.
  bool Idle() const;
  // The journal's identity (ContentVersionId) of a file the master
  // provides, when this cache read it; "" if not.
  std::string JournalIdOf(VersionId v) const;

  // --- Engine thread, without the mutex. ---
  // Stores what finished, checks what is held (repeatedly, while reused
  // tasks make more tasks ready), then asks for the outputs it must fetch;
  // true when it did something.
  bool Step(Mutex& mu) EXCLUDES(mu);
  // The run's end: keeps the store within the limit (least recently used
  // entries go first).
  void End();

 private:
  // A held task whose key is known, on its way to the history.
  struct Candidate {
    TaskId task;
    ReuseEntry now;
    std::vector<std::string> output_paths;  // this run's version files
    bool hit = false;
    ReuseEntry found;
  };
  // An input to identify: a user's file (version 0) may be known by the
  // facts of its last hash (file_hashes).
  struct ToHash {
    VersionId v;
    std::string path;
    bool user_file;
    std::string id;          // its identity, once known
    std::string journal_id;  // the journal's, when it was read
  };
  // Engine thread: the identity of `h`'s file, read and hashed unless a
  // hash of it still holds (CachedHashHolds).
  std::string IdentifyInput(ToHash& h);
  // A stored output on its way to the store.
  struct ToStore {
    TaskId task;
    VersionId v;
    std::string path;
    StoredFile stored;
    bool ok = false;
  };

  // Under the mutex: the identity of `v` if known ("" if not yet).
  std::string IdentityOf(VersionId v) const;
  // Under the mutex: the entry of `task` as it runs now (inputs known).
  ReuseEntry EntryOf(TaskId task);
  // Under the mutex: the identity of operation `op`'s code, read once.
  const std::string& CodeOf(OpId op);
  // `path` relative to the working directory when it is under it.
  std::string UserPath(const std::string& path) const;
  // Engine thread, no lock: whether the history and the store have `c`'s
  // results; on a hit they are linked in place (c.hit, c.found).
  void LookUp(Candidate& c);
  // Says why `c`, which must run, could not be reused.
  void Explain(const Candidate& c);
  void ReuseLocked(Candidate& c);
  void RequestStep();  // under the mutex

  Setup env_;
  const std::unique_ptr<Site> site_;
  ResultStore store_;

  // Under the engine's mutex.
  std::vector<bool> checked_;            // by task
  std::vector<std::string> code_of_op_;  // by operation; "" = not read yet
  std::vector<TaskId> held_;  // and adopted tasks whose inputs are unknown
  struct Adoption {
    std::string results;
    Seconds finished = 0;
  };
  std::unordered_map<TaskId, Adoption> adopted_;
  bool step_posted_ = false;
  std::vector<TaskId> finished_;
  // Outputs to fetch, and those out being fetched, with their tasks.
  std::vector<VersionId> fetches_;
  std::unordered_set<VersionId> fetching_;
  // Content identities of versions (AbsentFileId for no file), and the
  // journal's of those read here: the journal need not read them again.
  std::unordered_map<VersionId, std::string> ids_;
  std::unordered_map<VersionId, std::string> journal_ids_;
  // Versions whose bytes the store holds (stored or placed from it): a
  // task rewound and run again finds its outputs here, and makes no entry.
  std::unordered_set<VersionId> in_store_;
  // Outputs stored whose task's entry is not made yet: what the store
  // holds of them.
  std::unordered_map<VersionId, StoredFile> stored_;
  // Versions whose identity is unknowable (their data could not be
  // stored or read): readers run and record nothing.
  std::unordered_set<VersionId> unknowable_;
  // Entries of tasks that were checked and ran, until their outputs are
  // stored.
  std::unordered_map<TaskId, ReuseEntry> running_;
  // Engine thread (then the master's, at End): the explanations said so
  // far; entries and uses not written yet (in one transaction each few
  // thousand, or after a few seconds: a row each in the history's batch
  // would commit many times more often).
  size_t explained_ = 0;
  uint64_t stored_bytes_ = 0;  // bytes of the outputs stored this run
  std::vector<ReuseEntry> to_record_;
  Seconds oldest_to_record_ = 0;
  std::vector<std::string> used_keys_;
  // The user's files as last hashed, by path (loaded at the first need),
  // and those hashed in this run, to record.
  struct FileHashes {
    bool loaded = false;
    std::unordered_map<std::string, FileHash> by_path;
    std::vector<FileHash> fresh;
  } file_hashes_;
  // The keys the history holds, as 64-bit prefixes (loaded at the first
  // lookup), and those recorded since: a key in neither is a miss without
  // a query (every key of a first run).
  struct KnownKeys {
    bool loaded = false;
    std::unordered_set<uint64_t> prefixes;
  } known_keys_;
  // Writes to_record_ now.
  void WriteRecords();
};

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_RESULT_CACHE_H_
