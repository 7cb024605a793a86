// What the engine records of a run: the history (runtime/history/history.h)
// and the observers (runtime/observe/run_observer.h) hear the same facts from
// here. A fact is reported under the engine's lock, which serialises the
// observers' calls: they hear it at once, and the history's row is kept
// (pending) until the engine thread writes it without the lock (TakePending,
// then Write), in transactions committed every kFlushPeriod (StartFlushing).
//
// Owned by the Engine; not locked by itself. Beside each method: the thread
// and the lock it needs. "The engine lock" is the Engine's mu_, passed as
// `mu` so that clang's thread-safety analysis checks the caller holds it (as
// leveldb's VersionSet::LogAndApply does).
#ifndef GSRT_RUNTIME_ENGINE_RUN_RECORDER_H_
#define GSRT_RUNTIME_ENGINE_RUN_RECORDER_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/base/clock.h"
#include "runtime/base/messages.h"
#include "runtime/base/mutex.h"
#include "runtime/base/status.h"
#include "runtime/base/thread_annotations.h"
#include "runtime/graph/operation_table.h"
#include "runtime/graph/rewind.h"  // HostId
#include "runtime/graph/task_graph.h"
#include "runtime/history/check_pace.h"
#include "runtime/history/history_records.h"
#include "runtime/history/run_records.h"
#include "runtime/observe/run_observer.h"

namespace gs {

class History;

// What earlier runs in the history teach this one (RunRecorder::ReadLessons).
// Per host vectors are indexed by HostId; nullopt where the read failed.
struct HistoryLessons {
  // Durations of earlier successful jobs, for the predictor.
  std::optional<std::vector<ExecTimeSample>> exec_times;
  // Jobs that succeeded and jobs that ended.
  std::vector<std::optional<std::pair<int64_t, int64_t>>> job_success;
  // Availability checks and failures (empty unless asked for).
  std::vector<std::optional<HostReliability>> reliability;
};

class RunRecorder {
 public:
  // Rows kept under the engine lock until the next Write.
  struct Pending {
    std::vector<JobRecord> jobs;
    std::vector<HostFailure> failures;
    std::vector<HostCheck> checks;
    std::vector<TaskRecord> tasks;
    std::vector<TaskEnd> task_ends;
    std::vector<RunEvent> events;
    // Added by the engine after TakePending (what its adapters learned);
    // Write stamps them with the run.
    std::vector<QueueWait> queue_waits;
  };

  // `graph` and `ops` name the tasks and their operations (read under the
  // engine lock); `messages` hears the warnings. None is owned; all must
  // outlive the recorder.
  RunRecorder(const TaskGraph& graph, const OperationTable& ops,
              MessageSink& messages);
  ~RunRecorder();
  RunRecorder(const RunRecorder&) = delete;
  RunRecorder& operator=(const RunRecorder&) = delete;

  // --- Start: the master's thread, before the engine thread runs. ---
  // Where the records' times come from and the flush timer runs. Not owned.
  void set_clock(Clock* clock) { clock_ = clock; }
  // Host number HostId (those added before it: 0, 1, ...) and whether it
  // connected, recorded as an availability check.
  void AddHost(std::string name, std::string adapter_kind, bool connected);
  // Opens the history at `path` ("": none), begins the run and records the
  // hosts. Warns and goes on without a history when that fails. True when
  // the history is open.
  bool OpenHistory(const std::string& path, std::string_view program,
                   std::string_view cwd, Seconds started);
  // Reads what earlier runs teach (history open); each host's reliability
  // only when `reliability`.
  HistoryLessons ReadLessons(bool reliability);
  // Adds `observers` and tells them the run started at `started`, taking
  // `mu` (the engine lock) around their call.
  void ReportRunStarted(
      Mutex* mu, Seconds started,
      const std::vector<std::shared_ptr<RunObserver>>& observers) EXCLUDES(*mu);

  // --- Any thread once Start is over (they do not change after it). ---
  // When the run started (ReportRunStarted's).
  Seconds started() const { return started_; }
  // A history or an observer listens: reports are worth making.
  bool watched() const { return history_ != nullptr || !observers_.empty(); }
  // Null without a history. Used on the engine thread (and at Start)
  // without the engine lock, like Write (the journal writes through it).
  History* history() const { return history_.get(); }
  RunId run_id() const { return run_id_; }

  // --- The engine lock held: observers hear at once, rows are kept. ---
  void ReportTaskSubmitted(const Mutex& mu, TaskId task) REQUIRES(mu);
  // `queued`: it waits in the host's queue (of `slots`) for a slot.
  void ReportJobStart(const Mutex& mu, JobId job, TaskId task, HostId host,
                      bool replica, bool queued, int slots) REQUIRES(mu);
  // A queued job took a slot at `at` (runtime/observe/slot_occupancy.h).
  void ReportJobRunning(const Mutex& mu, JobId job, TaskId task, HostId host,
                        Seconds at, int slots) REQUIRES(mu);
  // A job attempt of `task` on `host` ended as `report` says; its run time
  // starts no earlier than `got_slot`, when it got a slot there.
  void RecordJob(const Mutex& mu, TaskId task, HostId host,
                 const JobReport& report, bool replica, Seconds submitted,
                 Seconds got_slot) REQUIRES(mu);
  void ReportEvent(const Mutex& mu, RunEvent event) REQUIRES(mu);
  // `state`: "done", "failed", "futile" or "cancelled" (the run's end
  // stopped its job).
  void ReportTaskEnd(const Mutex& mu, TaskId task, const char* state)
      REQUIRES(mu);
  // Availability checks and host losses go to the history only (kept even
  // before it opens: Start's connections are checks). Unanswered retries
  // of a host within kCheckPace of the last recorded one are one check,
  // not many (runtime/history/check_pace.h).
  void RecordCheck(const Mutex& mu, HostId host, bool answered) REQUIRES(mu);
  void RecordHostLost(const Mutex& mu, HostId host, const std::string& why)
      REQUIRES(mu);
  // What was kept since the last call, for Write.
  Pending TakePending(const Mutex& mu) REQUIRES(mu);
  // Rows kept since then; the engine writes them once there are
  // kWriteRows, and the flush timer every kFlushPeriod.
  size_t PendingRows(const Mutex& mu) const REQUIRES(mu);
  static constexpr size_t kWriteRows = 4096;
  // What a master killed with SIGKILL may lose of its history and journal.
  static constexpr Seconds kFlushPeriod = 0.25;

  // --- The engine thread (or the master's once it stopped), without the
  // engine lock: SQLite writes. All do nothing without a history. ---
  // Writes `pending`; a job that cannot be written is warned of.
  void Write(Pending pending);
  // Every kFlushPeriod: `before`, the commit (a failure warned of), `after`;
  // until StopFlushing. Runs on the clock's thread (the engine's).
  void StartFlushing(std::function<void()> before = nullptr,
                     std::function<void()> after = nullptr);
  void StopFlushing();
  // Ends the run in the history with `status` (and commits).
  Status EndRun(RunStatus status);
  // Tells the observers the run ended, taking `mu` around their call.
  void ReportRunEnded(Mutex* mu, RunStatus status) EXCLUDES(*mu);

  // Any thread: "gsrt: warning: history: <why>" to the message sink.
  void WarnHistory(const Status& why) const;

 private:
  struct HostName {
    std::string name;
    std::string adapter_kind;
    CheckPace checks;  // which of its availability attempts are recorded
  };
  void ScheduleFlush();
  // What observers hear of job `job` of task `t` on host `h` at `at`.
  JobStart JobStartOf(JobId job, TaskId t, HostId h, Seconds at,
                      int slots) const;

  const TaskGraph& graph_;
  const OperationTable& ops_;
  MessageSink& messages_;
  Clock* clock_ = nullptr;
  std::vector<HostName> hosts_;  // by HostId
  std::unique_ptr<History> history_;
  RunId run_id_ = 0;
  Seconds started_ = 0;  // ReportRunStarted's
  ObserverList observers_;
  Pending pending_;  // under the engine lock
  std::function<void()> before_flush_, after_flush_;
  std::unique_ptr<Timer> flush_timer_;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_RUN_RECORDER_H_
