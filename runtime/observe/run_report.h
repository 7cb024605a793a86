// What a finished (or interrupted) run amounts to, from its records: per
// host (jobs, busy time, utilization), per operation (jobs, mean and
// longest time), the failed tasks with their last error and logs, the
// critical path, and the time spent staging. Pure: `gsrt show` builds it
// from the history, the summary at GS_Off from what the run reported.
#ifndef GSRT_RUNTIME_OBSERVE_RUN_REPORT_H_
#define GSRT_RUNTIME_OBSERVE_RUN_REPORT_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "runtime/history/history_records.h"
#include "runtime/history/run_records.h"

namespace gs {

struct HostUse {
  std::string host;
  int64_t jobs = 0;
  int64_t ok = 0;
  Seconds busy = 0;  // sum of the attempts' run times
  // The host's slots as the run knew them; where unknown (`gsrt show`: the
  // history keeps none), the most attempts that ran at once. A prefetched
  // attempt's run time starts when it got a slot (slot_occupancy.h), so
  // neither counts jobs queued on the host.
  int slots = 0;
  // busy / (slots * the run's span); 0 when unknown.
  double utilization = 0;
};

struct OperationUse {
  std::string operation;
  int64_t jobs = 0;
  int64_t ok = 0;
  Seconds total = 0;  // run time of the successful attempts
  Seconds mean = 0;
  Seconds longest = 0;
};

struct FailedTask {
  TaskId task = 0;
  std::string operation;
  int attempts = 0;
  std::string host;  // of the last attempt
  std::string error;
  std::string log_dir;
};

// The longest chain of true dependencies, weighted by the run time of each
// task's successful attempt.
struct CriticalPath {
  Seconds length = 0;
  std::vector<TaskId> tasks;  // first to last
};

struct RunReport {
  Seconds span = 0;  // first submission to last end
  int64_t tasks = 0, done = 0, failed = 0, futile = 0;
  int64_t cancelled = 0;  // stopped by the run's end (a signal)
  // Of `done`: done by reusing an earlier run's results (docs/reuse.md).
  int64_t reused = 0;
  int64_t jobs = 0;
  std::vector<HostUse> hosts;            // by name
  std::vector<OperationUse> operations;  // slowest (mean) first
  std::vector<FailedTask> failures;      // by task
  CriticalPath critical;
  Seconds staging = 0;  // sum of transfer times
  uint64_t staged_bytes = 0;
  int64_t transfers = 0;
};

// `slots`: each host's slots, where known.
RunReport BuildRunReport(const std::vector<StoredTask>& tasks,
                         const std::vector<JobRecord>& jobs,
                         const std::vector<RunEvent>& events,
                         const std::map<std::string, int>& slots = {});

CriticalPath FindCriticalPath(const std::vector<StoredTask>& tasks,
                              const std::vector<JobRecord>& jobs);

}  // namespace gs

#endif  // GSRT_RUNTIME_OBSERVE_RUN_REPORT_H_
