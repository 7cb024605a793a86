// What the live page shows, kept up to date as a run observer: tasks by
// state per operation, hosts (up/suspect/down, running and queued jobs,
// slots, jobs, distrust, queue wait), the task
// stream (recent attempts per host and slot, as Dask's dashboard draws
// them), the failures with their last error, progress and an estimate of
// the time left. The engine's calls only update counters under a mutex;
// the server thread takes JSON snapshots
// (runtime/dashboard/dashboard_server.h).
#ifndef GSRT_RUNTIME_DASHBOARD_DASHBOARD_STATE_H_
#define GSRT_RUNTIME_DASHBOARD_DASHBOARD_STATE_H_

#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "runtime/observe/run_observer.h"

namespace gs {

class DashboardState : public RunObserver {
 public:
  // Attempts kept for the task stream (the oldest are dropped).
  static constexpr size_t kStreamLength = 2000;

  void OnRunStarted(Seconds started,
                    const std::vector<std::string>& hosts) override;
  void OnTaskSubmitted(const TaskRecord& task) override;
  void OnJobStarted(const JobStart& job) override;
  void OnJobRunning(const JobStart& job) override;
  void OnJobEnded(const JobRecord& job) override;
  void OnEvent(const RunEvent& event) override;
  void OnTaskEnded(const TaskEnd& end) override;
  void OnRunEnded(Seconds ended, RunStatus status) override;

  // Bumped by every change: the server sends a snapshot only when it moved.
  uint64_t version() const;
  // The page's data as JSON; `now` (the engine's clock, seconds since the
  // epoch) dates the estimate.
  std::string SnapshotJson(Seconds now) const;

 private:
  struct OpCounts {
    int64_t waiting = 0, running = 0, done = 0, failed = 0, futile = 0;
    int64_t cancelled = 0;  // stopped by the run's end (a signal)
    // Of `done`: done by reusing an earlier run's results (docs/reuse.md).
    int64_t reused = 0;
  };
  struct HostView {
    std::string state = "up";
    std::string why;
    // In a slot, and waiting in the host's queue (prefetched), as the
    // engine counts them (runtime/observe/slot_occupancy.h).
    int64_t running = 0;
    int64_t queued = 0;
    int slots = 0;  // the host's, from its jobs' starts; 0: not known yet
    int64_t jobs = 0;
    int64_t ok = 0;
    int64_t infra = 0;     // attempts lost to the host, not the application
    int64_t distrust = 0;  // failures charged to the host (paper 004 eq. 3)
    // Submission to start of each attempt: the batch queue's wait, or the
    // staging and dispatch time on other hosts.
    double wait_sum = 0, wait_last = 0;
    int64_t waits = 0;
    std::vector<int64_t> lane_ends_ms;  // per slot, for the task stream
  };
  struct Attempt {
    std::string host;
    int slot = 0;
    std::string operation;
    TaskId task = 0;
    Seconds start = 0, end = 0;
    std::string outcome;
  };
  struct Failure {
    TaskId task = 0;
    std::string operation;
    std::string host;
    std::string error;
    std::string log_dir;
  };
  void Changed() { ++version_; }
  // A job of `task` took a slot: its task counts as running.
  void TaskRunningLocked(TaskId task, const std::string& operation);

  mutable std::mutex mu_;
  uint64_t version_ = 0;
  Seconds started_ = 0, ended_ = 0;
  std::string status_ = "running";
  std::map<std::string, OpCounts> ops_;
  std::unordered_map<TaskId, std::string> task_op_;
  std::unordered_map<TaskId, int> running_jobs_;  // per task (replicas)
  std::unordered_set<JobId> queued_jobs_;         // on their hosts
  std::map<std::string, HostView> hosts_;
  std::deque<Attempt> stream_;
  std::vector<Failure> failures_;
  int64_t submitted_ = 0, finished_ = 0;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_DASHBOARD_DASHBOARD_STATE_H_
