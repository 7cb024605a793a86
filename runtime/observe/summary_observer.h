// The summary's additions at GS_Off (after the engine's own counters): the
// critical path, the utilization of each host, the time spent staging and
// the slowest operations, from what the run reported. Written to a stream
// (stderr in a master) when the run ends.
#ifndef GSRT_RUNTIME_OBSERVE_SUMMARY_OBSERVER_H_
#define GSRT_RUNTIME_OBSERVE_SUMMARY_OBSERVER_H_

#include <cstdio>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/observe/run_observer.h"
#include "runtime/observe/run_report.h"

namespace gs {

// The lines added to the summary (each ends with a newline).
std::string FormatSummaryAdditions(const RunReport& report);

class SummaryObserver : public RunObserver {
 public:
  explicit SummaryObserver(std::FILE* out) : out_(out) {}

  void OnTaskSubmitted(const TaskRecord& task) override;
  void OnJobEnded(const JobRecord& job) override;
  void OnEvent(const RunEvent& event) override;
  void OnTaskEnded(const TaskEnd& end) override;
  void OnRunEnded(Seconds ended, RunStatus status) override;

  RunReport Report() const;

 private:
  std::FILE* out_;
  mutable std::mutex mu_;
  std::vector<StoredTask> tasks_;
  std::unordered_map<TaskId, size_t> index_;
  std::vector<JobRecord> jobs_;
  std::vector<RunEvent> transfers_;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_OBSERVE_SUMMARY_OBSERVER_H_
