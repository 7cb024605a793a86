// The history database: one SQLite file shared by the runtime (which records
// every job attempt and host event) and gsdeploy (probes, ranking). It feeds
// execution-time predictions, host reliability (paper 004 eq. 1-3) and, later,
// resume after a master crash. docs/history.md documents the schema.
//
// One History object per process, used from one thread (the engine's). Other
// processes may use the same file at the same time: WAL mode plus a busy
// timeout serialise the writers.
#ifndef GSRT_RUNTIME_HISTORY_HISTORY_H_
#define GSRT_RUNTIME_HISTORY_HISTORY_H_

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "runtime/base/clock.h"
#include "runtime/base/status.h"
#include "runtime/history/history_records.h"
#include "runtime/history/journal.h"
#include "runtime/history/result_store.h"
#include "runtime/history/reuse_entry.h"
#include "runtime/history/run_records.h"
#include "runtime/history/sqlite_db.h"

namespace gs {

struct HistoryOptions {
  // How long a statement waits for another process's write lock before it
  // fails with kUnavailable. A probe and a run share the file, so waits are
  // short in practice; 5 s covers a checkpoint on a slow disk.
  int busy_timeout_ms = 5000;

  // Records (jobs, checks, failures) grouped into one transaction. 1 commits
  // each record on its own (each is durable on return). N > 1 keeps a write
  // transaction open until N records are pending or Flush() is called, which
  // is several times cheaper per record but holds the write lock in between
  // (other processes wait, up to their busy timeout) and a crash loses the
  // pending records. With batching, call Flush() from a periodic timer.
  int batch_size = 1;
};

class History {
 public:
  // Opens `path`, creating its parent directory (mode 0700) and the file
  // (mode 0600) when missing, and migrates the schema. An existing file that
  // is group- or world-writable loses those bits. Refuses, changing nothing,
  // a file that is not a readable gsrt history or whose schema is newer than
  // this build knows.
  static StatusOr<std::unique_ptr<History>> Open(const std::string& path);
  static StatusOr<std::unique_ptr<History>> Open(const std::string& path,
                                                 const HistoryOptions& options);
  // Commits pending records (errors are lost here: call Flush() to see them).
  ~History();
  History(const History&) = delete;
  History& operator=(const History&) = delete;

  const std::string& path() const { return db_->path(); }

  // A run is one execution of a master program. `now` comes from the clock
  // seam (the history never reads the system clock).
  StatusOr<RunId> BeginRun(std::string_view program, std::string_view cwd,
                           int host_count, Seconds now);
  // Also flushes pending records.
  Status EndRun(RunId run, RunStatus status, Seconds now);

  // Inserts or updates the host named `host.name`.
  Status RecordHost(const HostInfo& host);
  Status RecordJob(const JobRecord& job);
  Status RecordHostCheck(const HostCheck& check);
  // Infrastructure failures only (they raise the host's distrust).
  Status RecordHostFailure(const HostFailure& failure);

  // Commits the records pending in batch mode; a no-op otherwise.
  Status Flush();
  // Records written but not yet committed (always 0 when batch_size is 1).
  int pending() const { return pending_; }

  // Durations (ended - started) of successful jobs, at most
  // `limit_per_key` per (operation, host), grouped by (operation, host) in
  // name order, newest first within a group. Walks the index
  // jobs_exec_times: O(keys x (log jobs + limit)), not O(jobs).
  StatusOr<std::vector<ExecTimeSample>> LoadExecTimes(int limit_per_key);
  // Accumulated availability and distrust counts (zeros for a host never
  // seen). Checks count at a regular pace (check_pace.h): a burst of
  // unanswered attempts within one outage is one check.
  StatusOr<HostReliability> LoadHostReliability(std::string_view host);
  // Jobs of `host` that succeeded and that ended (not cancelled), over all
  // runs: its success rate (replication, WQDR-FT).
  StatusOr<std::pair<int64_t, int64_t>> LoadJobSuccess(std::string_view host);
  // The same for every host that has checks or failures, by name.
  StatusOr<std::vector<HostReliability>> LoadAllHostReliability();
  // Every job of `run`, in the order they were recorded.
  StatusOr<std::vector<JobRecord>> JobsForRun(RunId run);
  // The largest job number of any run (0 when none): a new run numbers its
  // jobs after it (runtime/engine/job_numbers.h).
  StatusOr<int64_t> LargestJobId();

  // --- Task journal, for resume (history_journal.cc). ---
  // Written in the batch transaction like jobs.
  Status RecordTaskJournal(const JournalEntry& entry);
  // The runs a new run `current` of `program` in `cwd` may resume: the
  // earlier runs of that program and directory that never ended (status
  // running, or cancelled by a signal), newest first, back to the newest
  // one that ended (ok or failed).
  StatusOr<std::vector<RunId>> FindInterruptedRuns(std::string_view program,
                                                   std::string_view cwd,
                                                   RunId current);
  // The journal of `run`, in task order.
  StatusOr<std::vector<JournalEntry>> LoadJournal(RunId run);

  // --- Results that last across runs (history_reuse.cc, docs/reuse.md). ---
  // Replaces the entries of the same keys; all in one transaction of
  // their own (what was batched before is committed first): a row each in
  // the batch transaction would commit far more often.
  Status RecordReuse(const std::vector<ReuseEntry>& entries);
  // The entry of `key`, or nullopt.
  StatusOr<std::optional<ReuseEntry>> FindReuse(std::string_view key);
  // The newest entry of `call` (ReuseCallOf), or nullopt: what a task that
  // must run is compared with.
  StatusOr<std::optional<ReuseEntry>> FindReuseByCall(std::string_view call);
  // Records that `keys` were reused at `when`: one row (table reuse_uses),
  // folded into the results' rows every few dozen runs.
  Status TouchReuse(const std::vector<std::string>& keys, Seconds when);
  // Each key's newest use not folded yet.
  StatusOr<std::unordered_map<std::string, Seconds>> LoadReuseUses();
  // Every entry, least recently used first.
  StatusOr<std::vector<ReuseEntry>> LoadReuse();
  // The keys of every entry, in no order (the cache's filter of misses).
  StatusOr<std::vector<std::string>> LoadReuseKeys();
  // The user's files as last hashed; RecordFileHashes replaces the rows
  // of the same paths, in one transaction.
  StatusOr<std::vector<FileHash>> LoadFileHashes();
  Status RecordFileHashes(const std::vector<FileHash>& hashes);
  // Deletes the entry of `key` (a no-op when there is none), or all.
  Status DeleteReuse(std::string_view key);
  Status DeleteAllReuse();

  // --- Batch jobs a run queued, for resume (history_queued_jobs.cc). ---
  // Written in the batch transaction like jobs; `outputs` newline-joined.
  // A gsrt job has one row of its own submissions: the latest replaces
  // earlier ones (a job being submitted, batch_id "", then its id); a row
  // of the job taken over stays beside it.
  Status RecordQueuedJob(const QueuedJobEntry& entry);
  // The batch jobs `run` queued or took over, newest gsrt job first (a
  // task retried has its latest job first), a job's own submission before
  // the job it took over.
  StatusOr<std::vector<QueuedJobEntry>> LoadQueuedJobs(RunId run);
  // Deletes every row of `run` (its jobs were cancelled, or are recorded
  // again under a newer run).
  Status DeleteQueuedJobs(RunId run);

  // --- Probe facts and listings (history_probes.cc; gsdeploy, grank). ---
  Status RecordHostProbe(const HostProbeRecord& probe);
  // One record per host that has probes, by name: the newest probe that
  // measured something (has an rtt), except that `bandwidth` and
  // `queue_wait` are the newest values measured (a probe whose transfer
  // failed does not erase the last one).
  StatusOr<std::vector<HostProbeRecord>> LoadLatestProbes();
  // Mean bytes_in of the successful jobs of `operation` (nullopt if none):
  // the data volume a job of it needs.
  StatusOr<std::optional<double>> LoadMeanInputBytes(
      std::string_view operation);
  // Recorded events matching `filter`, oldest first.
  StatusOr<std::vector<HostCheck>> LoadHostChecks(const HistoryFilter& filter);
  StatusOr<std::vector<HostProbeRecord>> LoadHostProbes(
      const HistoryFilter& filter);
  StatusOr<std::vector<HostFailure>> LoadHostFailures(
      const HistoryFilter& filter);
  // Jobs whose `ended` (or, when unknown, `submitted`) time matches.
  StatusOr<std::vector<JobRecord>> LoadJobs(const HistoryFilter& filter);

  // --- Batch queue waits (history_queue_waits.cc; the engine records). ---
  Status RecordQueueWait(const QueueWait& wait);
  // The newest `limit` waits of `host` (every host when empty), newest
  // first.
  StatusOr<std::vector<QueueWait>> LoadQueueWaits(std::string_view host,
                                                  int limit);
  // The id of the newest run (0 when none).
  StatusOr<int64_t> LatestRunId();

  // --- What a run did besides its jobs (history_runs.cc; gsrt). ---
  // Written in the batch transaction like jobs.
  // With `end`, the row is written ended (one statement, not two: a task
  // that ended in the batch it was submitted in, as a reused task).
  Status RecordTask(RunId run, const TaskRecord& task,
                    const TaskEnd* end = nullptr);
  Status RecordTaskEnd(RunId run, const TaskEnd& end);
  Status RecordRunEvent(RunId run, const RunEvent& event);
  // Every run, oldest first, with its counts.
  StatusOr<std::vector<RunRow>> LoadRuns();
  // One run (NotFound naming the file when it has none with that id).
  StatusOr<RunRow> LoadRun(RunId run);
  // The tasks of `run` in id order; `state` "submitted" when it never
  // ended (an interrupted run).
  StatusOr<std::vector<StoredTask>> LoadTasks(RunId run);
  // The events of `run`, oldest first.
  StatusOr<std::vector<RunEvent>> LoadRunEvents(RunId run);

 private:
  explicit History(std::unique_ptr<SqliteDb> db, const HistoryOptions& options)
      : db_(std::move(db)), options_(options) {}
  Status PrepareStatements();
  // Runs an INSERT/UPDATE that records something, inside the batch
  // transaction when batching.
  Status Write(SqliteStatement& stmt);
  // Commits the batch, then runs `body` in one transaction of its own
  // (rolled back when it fails).
  Status InOneTransaction(const std::function<Status()>& body);
  // A row of the columns kJobColumns (history_probes.cc) names.
  static JobRecord JobFromRow(const SqliteStatement& s);

  std::unique_ptr<SqliteDb> db_;
  HistoryOptions options_;
  int pending_ = 0;
  bool in_batch_ = false;

  // Prepared once; SQLite keeps their query plans.
  SqliteStatement begin_run_;
  SqliteStatement end_run_;
  SqliteStatement upsert_host_;
  SqliteStatement insert_job_;
  SqliteStatement insert_check_;
  SqliteStatement insert_failure_;
  SqliteStatement exec_keys_;   // the next (operation, host) after ?1, ?2
  SqliteStatement exec_times_;  // the newest durations of one key
  SqliteStatement checks_for_host_;
  SqliteStatement success_for_host_;
  SqliteStatement failures_for_host_;
  SqliteStatement all_checks_;
  SqliteStatement all_failures_;
  SqliteStatement jobs_for_run_;
  SqliteStatement insert_journal_;  // prepared on first use
  SqliteStatement insert_queued_;   // likewise
  SqliteStatement delete_queued_;   // likewise
  SqliteStatement insert_reuse_;    // likewise
  SqliteStatement find_reuse_;      // likewise
  SqliteStatement insert_hash_;     // likewise
  SqliteStatement insert_task_;     // these three too
  SqliteStatement end_task_;
  SqliteStatement insert_event_;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_HISTORY_HISTORY_H_
