// What a run reports to whoever watches it: the engine calls a RunObserver
// at each step (a task submitted, a job attempt sent, running or ended, a host
// changing state, a transfer, a retry, a rewind, a replica). The trace
// writer, the summary additions and the history's event records are
// observers; the engine knows none of them.
//
// Calls come from the engine's thread or the master's, often with the
// engine's lock held: an observer must be quick, must not block (no network,
// no waiting on a browser) and must not call back into the engine. The
// engine serialises the calls (never two at once).
#ifndef GSRT_RUNTIME_OBSERVE_RUN_OBSERVER_H_
#define GSRT_RUNTIME_OBSERVE_RUN_OBSERVER_H_

#include <memory>
#include <string>
#include <vector>

#include "runtime/base/clock.h"
#include "runtime/history/history_records.h"
#include "runtime/history/run_records.h"

namespace gs {

class RunObserver {
 public:
  virtual ~RunObserver() = default;
  // The run began at `started` with these hosts (configured order).
  virtual void OnRunStarted(Seconds started,
                            const std::vector<std::string>& hosts) {}
  virtual void OnTaskSubmitted(const TaskRecord& task) {}
  virtual void OnJobStarted(const JobStart& job) {}
  // A job queued on its host (JobStart::queued) took a slot at `job.time`.
  virtual void OnJobRunning(const JobStart& job) {}
  // The attempt's full record, as the history stores it.
  virtual void OnJobEnded(const JobRecord& job) {}
  virtual void OnEvent(const RunEvent& event) {}
  virtual void OnTaskEnded(const TaskEnd& end) {}
  // The run is over (GS_Off); `status` as the history records it.
  virtual void OnRunEnded(Seconds ended, RunStatus status) {}
};

// Forwards every call to each observer, in order.
class ObserverList : public RunObserver {
 public:
  void Add(std::shared_ptr<RunObserver> observer) {
    observers_.push_back(std::move(observer));
  }
  bool empty() const { return observers_.empty(); }

  void OnRunStarted(Seconds started,
                    const std::vector<std::string>& hosts) override {
    for (auto& o : observers_) o->OnRunStarted(started, hosts);
  }
  void OnTaskSubmitted(const TaskRecord& task) override {
    for (auto& o : observers_) o->OnTaskSubmitted(task);
  }
  void OnJobStarted(const JobStart& job) override {
    for (auto& o : observers_) o->OnJobStarted(job);
  }
  void OnJobRunning(const JobStart& job) override {
    for (auto& o : observers_) o->OnJobRunning(job);
  }
  void OnJobEnded(const JobRecord& job) override {
    for (auto& o : observers_) o->OnJobEnded(job);
  }
  void OnEvent(const RunEvent& event) override {
    for (auto& o : observers_) o->OnEvent(event);
  }
  void OnTaskEnded(const TaskEnd& end) override {
    for (auto& o : observers_) o->OnTaskEnded(end);
  }
  void OnRunEnded(Seconds ended, RunStatus status) override {
    for (auto& o : observers_) o->OnRunEnded(ended, status);
  }

 private:
  std::vector<std::shared_ptr<RunObserver>> observers_;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_OBSERVE_RUN_OBSERVER_H_
