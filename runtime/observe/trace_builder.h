// Turns a run's records into Chrome trace events (the JSON trace-event
// format that ui.perfetto.dev and chrome://tracing open). Pure: no I/O and
// no clock; each call emits zero or more serialised events to the sink.
//
// Layout: one process per host (pid 1.. in order of first appearance) with
// one thread per slot, and pid 0 for the master's side (fetches to the
// master, run-wide events). A job attempt is one complete event ("X")
// named "<operation> #<task>" on a slot lane of its host (slot_lanes.h:
// assigned as attempts end, so a live trace and one rebuilt from the
// history lay jobs out the same way). A transfer is an
// "X" event on its target's transfer lanes (tids from 1000). Host and task
// events are instant events ("i"). Each true dependency whose two ends both
// ran becomes a flow ("s" on the producer's successful attempt, "f" on the
// consumer's).
#ifndef GSRT_RUNTIME_OBSERVE_TRACE_BUILDER_H_
#define GSRT_RUNTIME_OBSERVE_TRACE_BUILDER_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/history/history_records.h"
#include "runtime/history/run_records.h"

namespace gs {

class TraceBuilder {
 public:
  using Sink = std::function<void(const std::string& event_json)>;
  explicit TraceBuilder(Sink sink) : sink_(std::move(sink)) {}

  // Times in the trace count from `started` (the run's start).
  void RunStarted(Seconds started, const std::vector<std::string>& hosts);
  void TaskSubmitted(const TaskRecord& task);
  void JobEnded(const JobRecord& job);
  void Event(const RunEvent& event);

  uint64_t jobs() const { return jobs_; }
  uint64_t flows() const { return flows_; }

 private:
  struct Lanes {
    int pid = 0;
    std::vector<int64_t> job_ends;       // per slot: the last end (us)
    std::vector<int64_t> transfer_ends;  // per transfer lane
  };
  // Where a task's successful attempt lies, for its flows.
  struct Placed {
    int pid = 0;
    int tid = 0;
    int64_t start = 0;
    int64_t end = 0;
  };
  int64_t Micros(Seconds t) const;
  Lanes& HostLanes(const std::string& host);
  // The lane free from `start` that was freed last, made if none is;
  // names new lanes.
  int TakeLane(std::vector<int64_t>* ends, int64_t start, int64_t end, int pid,
               int first_tid, const char* label);
  void Emit(const std::string& json) { sink_(json); }

  Sink sink_;
  Seconds origin_ = 0;
  int next_pid_ = 1;
  std::map<std::string, Lanes> hosts_;
  std::vector<int64_t> master_transfer_ends_;  // fetches to the master
  std::unordered_map<TaskId, std::vector<TaskId>> depends_on_;
  std::unordered_map<TaskId, Placed> placed_;
  std::unordered_map<TaskId, uint32_t> attempts_;
  uint64_t jobs_ = 0;
  uint64_t flows_ = 0;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_OBSERVE_TRACE_BUILDER_H_
