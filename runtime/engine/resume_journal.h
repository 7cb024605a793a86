// The task journal and resuming a run whose master was killed
// (docs/design.md, "Resume"). Every task that finishes leaves an entry in
// the history (signature, where its outputs are), and every batch job an
// adapter queues is recorded. A master started again with the same program
// in the same directory resumes: a task the journal holds is marked done
// without running and its outputs adopted where they are; a batch job of
// the interrupted run is taken over when its task goes to the same host,
// and cancelled otherwise.
// Owned by the engine, which makes one only with a history. Not locked by
// itself: each method says whether it runs under the engine's mutex or on
// the engine thread without it (those take the mutex as a parameter and
// lock it only for the parts that read the engine's state).
#ifndef GSRT_RUNTIME_ENGINE_RESUME_JOURNAL_H_
#define GSRT_RUNTIME_ENGINE_RESUME_JOURNAL_H_

#include <array>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "runtime/base/clock.h"
#include "runtime/base/file_system.h"
#include "runtime/base/messages.h"
#include "runtime/base/mutex.h"
#include "runtime/base/thread_annotations.h"
#include "runtime/engine/run_stats.h"
#include "runtime/graph/file_table.h"
#include "runtime/graph/operation_table.h"
#include "runtime/graph/task_graph.h"
#include "runtime/history/journal.h"
#include "runtime/sched/scheduler.h"

namespace gs {

class History;

// An output an interrupted run left on a host that does not share the
// master's files, to fetch into the master's data dir.
struct ResumeFetch {
  HostId host;
  std::string key, host_path, master_path;
};

class ResumeJournal {
 public:
  // A host as the journal sees it.
  struct HostView {
    std::string name;
    bool shared = true;  // sees the master's files at the same paths
    bool usable = true;
    std::string data_dir;  // version files there when not shared
  };

  // What the journal asks of the engine; called under the engine's mutex.
  class Site {
   public:
    virtual ~Site() = default;
    // Where `v`'s data lives on the master, and its name in a data dir.
    virtual std::string VersionPath(VersionId v) const = 0;
    virtual std::string VersionFileName(VersionId v) const = 0;
    virtual size_t NumHosts() const = 0;
    virtual HostView Host(HostId host) const = 0;
    // `task` must run (again): ready if its inputs exist, else waiting.
    virtual void Requeue(TaskId task) = 0;
    // These tasks became ready (reused producers): schedule them.
    virtual void Ready(const std::vector<TaskId>& tasks) = 0;
    // A scheduling round is due.
    virtual void Wake() = 0;
    // A task finished without running: the master's waits look again.
    virtual void NotifyWaiters() = 0;
    // Copies or sizes changed (the predictor's transfer times).
    virtual void TransfersChanged() = 0;
    // Whether a host that does not share the master's files holds a copy
    // of `v`; that `v`'s data is on `host` alone.
    virtual bool HasRemoteCopy(VersionId v) const = 0;
    virtual void SetOnlyCopy(VersionId v, HostId host) = 0;
    // The journal's identity of a file the master provides when another
    // reader (results that last across runs) has read it; "" if none.
    virtual std::string KnownContentId(VersionId /*v*/) const { return ""; }
    // `task` was done by reusing what an interrupted run journaled.
    virtual void Resumed(TaskId /*task*/) {}
  };

  // What the journal reads and updates; not owned, all outlive it, and
  // all but `fs`, `messages` and `history` are guarded by the engine's
  // mutex.
  struct Setup {
    TaskGraph* graph = nullptr;
    const FileTable* files = nullptr;
    const OperationTable* ops = nullptr;
    RunStats* stats = nullptr;
    // A synchronous task's encoded results, by task.
    std::unordered_map<TaskId, std::string>* results = nullptr;
    // The host each task last ran on (kNoHost, or short: none).
    const std::vector<HostId>* task_host = nullptr;
    FileSystem* fs = nullptr;
    MessageSink* messages = nullptr;
    History* history = nullptr;
    Clock* clock = nullptr;
    RunId run = 0;
    std::string work_dir;         // versions in work_dir/data
    std::string worker_identity;  // journaled with every task
  };

  ResumeJournal(Setup setup, std::unique_ptr<Site> site);
  ResumeJournal(const ResumeJournal&) = delete;
  ResumeJournal& operator=(const ResumeJournal&) = delete;

  // --- Start, before the engine thread runs (no lock needed). ---
  // Reads the journals and batch jobs of the interrupted runs of `program`
  // in `cwd`; resuming() says whether there was anything to reuse.
  void LoadInterruptedRuns(const std::string& program, const std::string& cwd);

  // --- Under the engine's mutex. ---
  bool resuming() const { return resuming_; }
  // Outputs the interrupted runs left on other hosts that the master does
  // not hold yet; Fetched for each that came, then ReportFetched.
  std::vector<ResumeFetch> ResumeFetches();
  void Fetched(const ResumeFetch& fetch) { fetched_[fetch.key] = fetch.host; }
  void ReportFetched(const std::vector<ResumeFetch>& wants, bool all);
  // Files fetched from other hosts that stay there as this run's copies.
  std::vector<std::pair<HostId, std::string>> FetchedCopies() const;

  // Submit: true when the journal took care of `task` (reused it, or made
  // it wait for inputs that must be recomputed).
  bool ResumeSubmitted(TaskId task);
  // `task` finished in this run: journaled with the next Write.
  void Finished(TaskId task);
  // `v` is garbage: its data goes once the entries that made it garbage
  // are committed (TakeCollected, after a history flush).
  void Collected(VersionId v) { collected_.push_back(v); }
  // The collected versions still garbage: their paths on the master to
  // remove and those with remote copies to remove; forgets them.
  void TakeCollected(std::vector<std::string>* paths,
                     std::vector<VersionId>* remote);

  // A reused version whose data is gone and that is needed again.
  bool NeedsRecompute(VersionId v) const;
  // Makes its producer run again (and, recursively, what it needs).
  void Recompute(VersionId v);
  // GS_Off: recomputes the final versions reused without data; true when
  // there were any (the caller wakes the engine and waits).
  bool RecomputeFinalVersions();

  // A dispatch of `task` to the host named `host`: the interrupted run's
  // batch job to take over, if it was queued there; one queued on another
  // host is cancelled (TakeJobsToForget).
  std::optional<QueuedJob> TakeOver(TaskId task, const std::string& host);
  bool HasJobsToForget() const { return !forget_.empty(); }
  // The batch jobs to cancel; `all` at the run's end (every job not taken
  // over by then).
  std::vector<QueuedJobEntry> TakeJobsToForget(bool all);

  // The task's signature (memoised) and its outputs' version file names.
  std::string Signature(TaskId task);
  std::vector<std::string> OutputFileNames(TaskId task) const;

  // --- Engine thread, without the engine's mutex. ---
  // Writes the entries of the tasks finished since the last call (hashes
  // and stats files outside `mu`).
  void Write(Mutex& mu) EXCLUDES(mu);
  // After a signal stopped the run and its adapters cancelled the jobs
  // they held: rewrites the batch jobs of this run and of the runs it
  // resumed as those that may still be queued (never taken over, never
  // cancelled), so that the next run offers to take over only those.
  void RecordStillQueued(Mutex& mu) EXCLUDES(mu);
  // Records `rows` (a run, host and job each) with their tasks' signatures
  // and commits them if `commit`.
  void WriteQueuedJobs(Mutex& mu, std::vector<QueuedJobEntry> rows, bool commit)
      EXCLUDES(mu);
  // Records and commits `jobs`, which `host` is about to submit.
  void RecordSubmissions(Mutex& mu, const std::string& host,
                         const std::vector<QueuedJob>& jobs) EXCLUDES(mu);
  // A commit of the batch jobs just queued is posted: false when one is
  // posted already; QueuedCommitRan when it ran.
  bool PostQueuedCommit() { return !std::exchange(commit_posted_, true); }
  void QueuedCommitRan() { commit_posted_ = false; }

 private:
  // A task finished in this run, to journal outside the engine's mutex.
  struct Finish {
    TaskId task;
    HostId host;
    Seconds when;
    std::string results;  // copied now: the master takes them away
  };
  // One batch of entries on its way to the history (Write).
  struct Batch {
    std::vector<Finish> finished;
    // Entries complete already (reused tasks), then one per finished task.
    std::vector<JournalEntry> entries;
    // Versions the master provides that the finished tasks read: their
    // paths, replaced by their identities once hashed.
    std::vector<std::pair<VersionId, std::string>> to_hash;
    // Per finished task, per output: the path to stat on the master (""
    // when the output is on another host).
    std::vector<std::vector<std::string>> stat_paths;
  };

  void LoadQueuedJobs(RunId run);
  void ReuseTask(TaskId task, const JournalEntry& entry);
  // Takes `v`, output `o` of a journaled task, where the journal says it
  // is, if it is still there; returns this run's record of it.
  JournalOutput AdoptOutput(VersionId v, const JournalOutput& o);
  std::string VersionIdentity(VersionId v);
  // The identity of a file the master provides, from its bytes (any
  // thread: reads the file only).
  std::string ContentIdOfFile(const std::string& path);
  void TakeBatch(Batch* batch);            // under the mutex
  void MakeEntries(Batch* batch);          // under the mutex
  void StatOutputs(Batch* batch);          // without it
  void RecordEntries(const Batch& batch);  // without it

  const Setup env_;
  const std::unique_ptr<Site> site_;

  std::vector<Finish> finished_;
  // Entries complete already (reused tasks), to write with the next batch.
  std::vector<JournalEntry> entries_;
  // Memoised signatures (32 hex digits), by task; a first byte of 0 = not
  // computed yet. Fixed size: no allocation per task.
  std::vector<std::array<char, 32>> signatures_;
  // Identities of versions the master provides, from their contents (""
  // while Write hashes one outside the lock).
  std::unordered_map<VersionId, std::string> content_ids_;
  // Collected versions whose data is deleted only once the journal entries
  // that made them garbage are committed: a crash in between must not
  // leave a journal that points at deleted inputs of unjournaled tasks.
  std::vector<VersionId> collected_;

  // Resuming: the interrupted runs' entries, and which tasks were reused.
  bool resuming_ = false;
  std::vector<RunId> interrupted_;  // newest first
  ResumeIndex index_;
  std::vector<bool> reused_;  // by task
  // Batch jobs the interrupted runs queued for tasks they did not finish,
  // by QueuedJobKey (the newest run's when several), to take over; and
  // those to cancel (pilots, jobs no task of this run takes over).
  std::unordered_map<std::string, QueuedJobEntry> queued_;
  std::vector<QueuedJobEntry> forget_;
  // Engine thread only: a commit of the batch jobs just queued is posted.
  bool commit_posted_ = false;
  // Batch jobs of the interrupted runs taken over, as host + '\n' + batch
  // id: what the summary's count is (RunStats::adopted).
  std::set<std::string> taken_over_;
  // Outputs left on other hosts by the interrupted runs and now present in
  // the master's data dir: host + '\n' + file -> the host it came from
  // (kNoHost when the master already held a copy).
  std::unordered_map<std::string, HostId> fetched_;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_RESUME_JOURNAL_H_
