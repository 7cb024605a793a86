// The summary's additions at GS_Off (after the engine's own counters): the
// critical path, the utilization of each host, the time spent staging and
// the slowest operations, from what the run reported. Said to a message
// sink (kSummary; the master's stderr) when the run ends.
#ifndef GSRT_RUNTIME_OBSERVE_SUMMARY_OBSERVER_H_
#define GSRT_RUNTIME_OBSERVE_SUMMARY_OBSERVER_H_

#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/base/messages.h"
#include "runtime/observe/run_observer.h"
#include "runtime/observe/run_report.h"

namespace gs {

// The lines added to the summary (each ends with a newline).
std::string FormatSummaryAdditions(const RunReport& report);

class SummaryObserver : public RunObserver {
 public:
  // `messages`: where the additions go; null: nowhere (Report() only). Not
  // owned; must outlive the observer.
  explicit SummaryObserver(MessageSink* messages) : messages_(messages) {}

  void OnTaskSubmitted(const TaskRecord& task) override;
  // Learns the host's slots (JobStart::slots), which utilization is of.
  void OnJobStarted(const JobStart& job) override;
  void OnJobEnded(const JobRecord& job) override;
  void OnEvent(const RunEvent& event) override;
  void OnTaskEnded(const TaskEnd& end) override;
  void OnRunEnded(Seconds ended, RunStatus status) override;

  RunReport Report() const;

 private:
  MessageSink* const messages_;
  mutable std::mutex mu_;
  std::vector<StoredTask> tasks_;
  std::unordered_map<TaskId, size_t> index_;
  std::vector<JobRecord> jobs_;
  std::vector<RunEvent> transfers_;
  std::map<std::string, int> slots_;  // per host, as last sent a job
};

}  // namespace gs

#endif  // GSRT_RUNTIME_OBSERVE_SUMMARY_OBSERVER_H_
