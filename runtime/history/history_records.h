// Plain records written to and read from the history database
// (runtime/history/history.h). No I/O here, so pure modules (the execution-time
// estimator, the host ranking) can use them without SQLite.
#ifndef GSRT_RUNTIME_HISTORY_HISTORY_RECORDS_H_
#define GSRT_RUNTIME_HISTORY_HISTORY_RECORDS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "runtime/base/clock.h"
#include "runtime/jobs/job.h"

namespace gs {

// Row id of a run in the `runs` table.
using RunId = int64_t;

enum class RunStatus { kRunning, kOk, kFailed, kCancelled };

// How a job attempt ended. Only kInfra charges the host (distrust); kApp
// charges the task's retry budget.
enum class OutcomeClass {
  kOk,         // the worker exited 0 and wrote every declared output
  kApp,        // the worker ran and failed (exit code, missing output)
  kInfra,      // the host or the connection failed; the job's fate unknown
  kTimeout,    // killed after the job's time limit
  kCancelled,  // stopped by the runtime (e.g. the losing replica)
};

// The names stored in the database ("ok", "app", "infra", "timeout",
// "cancelled", and "running", "ok", "failed", "cancelled" for runs).
std::string_view OutcomeClassName(OutcomeClass outcome);
std::optional<OutcomeClass> ParseOutcomeClass(std::string_view name);
std::string_view RunStatusName(RunStatus status);

// One job attempt. Times are seconds since the epoch; 0 means unknown (the
// job never started, for example) and is stored as NULL.
struct JobRecord {
  RunId run = 0;
  TaskId task = 0;
  JobId job = 0;
  std::string operation;
  std::string host;
  Seconds submitted = 0;
  Seconds started = 0;
  Seconds ended = 0;
  OutcomeClass outcome = OutcomeClass::kOk;
  std::optional<int> exit_code;  // set only when the worker exited
  std::string error;             // empty on success
  uint64_t bytes_in = 0;
  uint64_t bytes_out = 0;
  Usage usage;
  bool replica = false;  // a duplicate of a task that already had a job
  std::string log_dir;
};

// Builds the record of `report` (the adapter's answer to `spec`) run on
// `host`: the outcome variant becomes an OutcomeClass, the error text says
// why (host failure reason, time limit).
JobRecord JobRecordFromReport(RunId run, const JobSpec& spec,
                              std::string_view host, const JobReport& report,
                              bool replica);

// Who checked whether a host answers.
enum class CheckSource { kProbe, kRuntime };
std::string_view CheckSourceName(CheckSource source);

// One availability attempt (paper 004 eq. 1-2: every check adds to ta, a
// check not answered adds to na).
struct HostCheck {
  std::string host;
  Seconds time = 0;
  bool answered = false;
  std::optional<Seconds> rtt;  // round-trip time when answered
  CheckSource source = CheckSource::kRuntime;
};

// One distrust event (paper 004 eq. 3): an infrastructure failure charged
// to the host. Application failures are never recorded here.
struct HostFailure {
  std::string host;
  Seconds time = 0;
  // Short machine-friendly kind: "connection_lost", "host_down",
  // "job_manager", "network", "agent_crashed", ...
  std::string kind;
  std::string detail;  // the message the user would need
  RunId run = 0;       // 0 when not during a run (a probe)
  JobId job = 0;       // 0 when no job was involved
};

// A host as configured (upserted by name).
struct HostInfo {
  std::string name;
  std::string adapter;  // "local", "ssh", "slurm", ...
  std::string address;
};

// The duration (end - start) of one successful job.
struct ExecTimeSample {
  std::string operation;
  std::string host;
  Seconds seconds = 0;
  Seconds ended = 0;
};

// What one probe measured on a host (table host_probes). nullopt: not
// measured.
struct HostProbeRecord {
  std::string host;
  Seconds time = 0;
  CheckSource source = CheckSource::kProbe;
  std::optional<Seconds> rtt;
  std::optional<uint32_t> cores;
  std::optional<uint64_t> memory_total;      // bytes
  std::optional<uint64_t> memory_available;  // bytes
  std::optional<double> load1;
  std::optional<double> bandwidth;    // bytes/s of a timed transfer
  std::optional<Seconds> queue_wait;  // expected wait of a batch queue
  std::string queue_wait_basis;       // what it comes from; "" unknown
  // How far the samples behind rtt and bandwidth spread (probe_measures.h
  // in runtime/deploy); nullopt when not measured (schema before 6).
  std::optional<Seconds> rtt_spread;
  std::optional<double> bandwidth_spread;
  std::string error;  // why the probe measured nothing (or less); "" if ok
};

// How long one batch job waited in its queue (table queue_waits): from
// submission to the start of its first process.
struct QueueWait {
  std::string host;
  std::string partition;  // "" for the site's default
  int nodes = 1;
  int cores = 1;         // per node
  Seconds walltime = 0;  // the job's time limit; 0: the default
  Seconds submitted = 0;
  Seconds started = 0;
  std::optional<int64_t> run_id;  // nullopt: not tied to a recorded run
};

// Which recorded events a listing returns: every host when `host` is
// empty; events at or after `since` (seconds since the epoch; 0: all).
struct HistoryFilter {
  std::string host;
  Seconds since = 0;
};

// Accumulated counts for one host (paper 004 eq. 1-3).
struct HostReliability {
  std::string host;
  int64_t attempts = 0;      // ta: availability checks
  int64_t not_answered = 0;  // na: checks the host did not answer
  int64_t distrust = 0;      // trv: infrastructure failures
};

}  // namespace gs

#endif  // GSRT_RUNTIME_HISTORY_HISTORY_RECORDS_H_
