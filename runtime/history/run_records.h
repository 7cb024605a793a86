// Plain records of what happened in a run besides its job attempts: the
// tasks with their true dependencies, host and task events, transfers, and
// how each task ended. The engine reports them to its observers
// (runtime/observe/run_observer.h) and the history stores them (tables
// run_tasks and run_events, docs/history.md), so that `gsrt trace` and
// `gsrt show` can rebuild a run afterwards.
#ifndef GSRT_RUNTIME_HISTORY_RUN_RECORDS_H_
#define GSRT_RUNTIME_HISTORY_RUN_RECORDS_H_

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "runtime/base/clock.h"
#include "runtime/jobs/job.h"

namespace gs {

inline constexpr TaskId kNoTaskRecord = std::numeric_limits<TaskId>::max();

// A task as submitted: the tasks it truly depends on (producers of the
// versions it reads; read after write only).
struct TaskRecord {
  TaskId task = 0;
  std::string operation;
  std::vector<TaskId> depends_on;
  Seconds submitted = 0;
};

// A job attempt handed to a host (staging of its inputs may follow).
struct JobStart {
  JobId job = 0;
  TaskId task = 0;
  std::string operation;
  std::string host;
  Seconds time = 0;
  bool replica = false;
  // Waits in the host's queue (prefetched) until OnJobRunning; counted as
  // queued on the host, not running (runtime/observe/slot_occupancy.h).
  bool queued = false;
  int slots = 0;  // the host's slots when the job was sent; 0: unknown
};

// Something that happened at one moment (or, for a transfer, over
// `duration` seconds from `time`). Kinds: host_up, host_suspect, host_down,
// retry, rewind, replica, transfer, quiet (jobs out, nothing moving).
struct RunEvent {
  RunEvent() = default;
  RunEvent(std::string kind, Seconds time, Seconds duration = 0,
           std::string host = "")
      : kind(std::move(kind)),
        time(time),
        duration(duration),
        host(std::move(host)) {}

  std::string kind;
  Seconds time = 0;
  Seconds duration = 0;
  std::string host;             // the host concerned (a transfer's target)
  TaskId task = kNoTaskRecord;  // the task concerned, if any
  uint64_t bytes = 0;           // a transfer's size
  std::string detail;           // why, or what (a transfer's file)
};

// How a task ended: "done", "failed", "futile" or "cancelled" (stopped by
// the run's end: a signal).
struct TaskEnd {
  TaskId task = 0;
  std::string state;
  Seconds time = 0;
};

// One row of `gsrt runs`: a run and its counts.
struct RunRow {
  int64_t id = 0;
  Seconds started = 0;
  Seconds ended = 0;  // 0: still running, or the master crashed
  std::string program;
  std::string cwd;
  int host_count = 0;
  std::string status;  // running, ok, failed, cancelled
  int64_t tasks = 0;   // recorded tasks (0 before schema version 3)
  int64_t jobs = 0;    // job attempts
  int64_t failed_tasks = 0;
  int64_t failed_jobs = 0;      // attempts that failed (not ok, not cancelled)
  int64_t cancelled_tasks = 0;  // stopped by the run's end
  int64_t cancelled_jobs = 0;   // attempts cancelled (by gsrt or the run's end)
  int64_t reused_tasks = 0;     // done by reusing an earlier run's results
};

// A task as the history keeps it.
struct StoredTask {
  TaskRecord record;
  // submitted, done, failed, futile, cancelled, reused
  std::string state;
  Seconds ended = 0;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_HISTORY_RUN_RECORDS_H_
