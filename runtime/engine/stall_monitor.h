// The engine's watch over a run that stops moving. Every period it looks
// at the ready queue, the hosts and what is out: once the run has been
// stuck for the stall timeout (stall_watch.h decides), the ready tasks fail
// with a message that names them, the policy and the hosts, so the master
// ends instead of waiting forever. While jobs are out and nothing starts
// or ends, the run is reported instead (quiet_watch.h). A thread of its own
// (loop_watchdog.h) watches that the engine thread itself comes back.
//
// Owned by the Engine. Start and Check run on the engine thread; each look
// takes the engine's mutex (given at construction) and asks the Site, which
// it owns, under it. The watchdog is made on the master's thread before the
// engine thread starts and stopped on the engine thread at the run's end.
#ifndef GSRT_RUNTIME_ENGINE_STALL_MONITOR_H_
#define GSRT_RUNTIME_ENGINE_STALL_MONITOR_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "runtime/base/clock.h"
#include "runtime/base/messages.h"
#include "runtime/base/mutex.h"
#include "runtime/engine/loop_watchdog.h"
#include "runtime/engine/periodic_timers.h"
#include "runtime/engine/quiet_watch.h"
#include "runtime/engine/run_stats.h"
#include "runtime/engine/stall_watch.h"
#include "runtime/graph/task_graph.h"
#include "runtime/sched/scheduler.h"

namespace gs {

class StallMonitor {
 public:
  // What a look asks of the engine; called under the engine's mutex.
  class Site {
   public:
    virtual ~Site() = default;
    // The run is ending: no look, no report.
    virtual bool Stopping() const = 0;
    virtual size_t NumReady() const = 0;
    // The ready tasks, in queue order, with what the message calls them
    // ("task 3 (scratch)").
    virtual std::vector<std::pair<TaskId, std::string>> ReadyTasks() const = 0;
    // Each host's state as the policies see it (its free slots).
    virtual void HostStates(std::vector<HostState>* states) const = 0;
    // What is out and should end: jobs (running or staging), transfers,
    // and failed tasks waiting for their retry.
    virtual size_t NumJobs() const = 0;
    virtual size_t TransfersInFlight() const = 0;
    virtual size_t PendingRetries() const = 0;
    // Some usable host's adapter has a free slot now (no round saw it).
    virtual bool AdaptersOfferSlots() const = 0;
    // A scheduling round is due.
    virtual void Wake() = 0;
    // The jobs out, oldest first, and every host, as the quiet report
    // shows them at `now`.
    virtual std::vector<QuietJob> Jobs(Seconds now) const = 0;
    virtual std::vector<QuietHost> Hosts(Seconds now) const = 0;
    // Fails those of `tasks` still ready and takes them off the queue.
    virtual void FailStalled(const std::vector<TaskId>& tasks) = 0;
    // The master's waits look again.
    virtual void NotifyWaiters() = 0;
    // The observers' "quiet" event.
    virtual void Quiet(Seconds now, const std::string& report) = 0;
  };

  // `bound`: runtime.stall_timeout (0: no watch, and none in virtual
  // time); `policy` names the policy in the message. The references must
  // outlive this object.
  StallMonitor(Seconds bound, bool virtual_time, std::string policy, Mutex& mu,
               RunStats& stats, MessageSink& messages,
               std::unique_ptr<Site> site);
  StallMonitor(const StallMonitor&) = delete;
  StallMonitor& operator=(const StallMonitor&) = delete;

  // Master thread, before the engine thread starts: the watchdog, which
  // judges from the first beat.
  void StartWatchdog();
  // Engine thread: the periodic look (it beats the watchdog) on `timers`.
  void Start(PeriodicTimers& timers, const Clock& clock);
  // One look, at the clock's now (what the periodic timer runs). Takes the
  // engine's mutex.
  void Check();
  // What watches the engine thread's calls (WatchedCall); null when off.
  LoopWatchdog* watchdog() const { return watchdog_.get(); }
  // Engine thread, at the run's end: no more beats from here.
  void StopWatchdog();

 private:
  bool off() const { return bound_ <= 0 || virtual_time_; }
  // The quiet report of what is out and where.
  std::string DescribeQuiet(Seconds now, Seconds quiet_for) REQUIRES(mu_);
  // Fails the ready tasks; returns the message naming them, the policy and
  // the hosts.
  std::string FailStalled(Seconds now, Seconds stuck_for,
                          const std::vector<HostState>& states) REQUIRES(mu_);

  const Seconds bound_;
  const bool virtual_time_;
  const std::string policy_;
  Mutex& mu_;
  RunStats& stats_ GUARDED_BY(mu_);
  MessageSink& messages_;  // thread-safe
  std::unique_ptr<Site> site_;
  const Clock* clock_ = nullptr;  // set by Start
  StallWatch stall_ GUARDED_BY(mu_);
  QuietWatch quiet_ GUARDED_BY(mu_);
  std::unique_ptr<LoopWatchdog> watchdog_;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_STALL_MONITOR_H_
