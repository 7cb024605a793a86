// Watches the hosts of a run: their health (up, suspect, down from the
// adapters' heartbeats, runtime/sched/host_health.h) told to the user and
// recorded as availability checks (paper 004 eq. 1-2); every slot, each
// host's state as one observation of the volatile policies' availability
// model; and a lost host, given up and tried again after a backoff that
// doubles up to its bound, until it is back and swept.
//
// Owned by the Engine. HostLost and Answered are called with the engine's
// mutex (given at construction) held; the rest runs on the engine thread
// and takes the mutex itself. Adapters are called without it. What only
// the engine does when a host is back (a scheduling round) goes through
// Site, which it owns.
#ifndef GSRT_RUNTIME_ENGINE_HOST_MONITOR_H_
#define GSRT_RUNTIME_ENGINE_HOST_MONITOR_H_

#include <memory>
#include <string>

#include "runtime/base/clock.h"
#include "runtime/base/messages.h"
#include "runtime/base/mutex.h"
#include "runtime/base/status.h"
#include "runtime/engine/engine_loop.h"
#include "runtime/engine/host_set.h"
#include "runtime/engine/host_sweeper.h"
#include "runtime/engine/loop_watchdog.h"
#include "runtime/engine/run_recorder.h"
#include "runtime/engine/run_stats.h"

namespace gs {

class HostMonitor {
 public:
  class Site {
   public:
    virtual ~Site() = default;
    // Engine thread, no lock: `host` is usable again and swept; what waits
    // for a slot may go there now.
    virtual void HostBack(HostId host) = 0;
  };

  // A lost host is tried again after `backoff` seconds, doubling up to
  // `backoff_max`. The references must outlive this object.
  HostMonitor(Seconds backoff, Seconds backoff_max, Mutex& mu, EngineLoop& loop,
              HostSet& hosts, HostSweeper& sweeper, RunRecorder& recorder,
              RunStats& stats, MessageSink& messages,
              std::unique_ptr<Site> site);
  HostMonitor(const HostMonitor&) = delete;
  HostMonitor& operator=(const HostMonitor&) = delete;

  // Master thread, Start, hosts connected: the availability model's slot
  // (one per shortest heartbeat; a second without heartbeats).
  void SetSlot();
  // Master thread, before the engine thread starts: what watches the
  // reconnect calls (the stall monitor's; null: none).
  void set_watchdog(LoopWatchdog* watchdog) { watchdog_ = watchdog; }
  // Engine thread: the periodic looks on the loop's timers.
  void Start();
  // Engine thread, at the run's end: no more reconnect attempts.
  void CancelReconnects();

  // `host` is lost: no more jobs there, the loss recorded and told to the
  // observers, a reconnect attempt after the backoff.
  // `mu`: the engine's mutex, held.
  void HostLost(const Mutex& mu, HostId host, const std::string& why)
      REQUIRES(mu);
  // Engine thread, no lock: one attempt to reconnect `host`; its end is
  // the sweeper's when it asked for it (ReconnectEnded).
  void Reconnect(HostId host);
  // A reconnect attempt answered: recorded as an availability check, and
  // the host usable again if it connected.
  void Answered(const Mutex& mu, HostId host, bool ok) REQUIRES(mu);

 private:
  // Engine thread: the next attempt after the host's backoff.
  void ScheduleReconnect(HostId host);
  void ReconnectEnded(HostId host, const Status& s);
  // Tells and records each host whose health changed.
  void CheckHealth();
  // One slot's observation; false once the run is stopping.
  bool ObserveAvailability();
  // The observers' host event ("host_up", "host_down", "host_suspect").
  void ReportHostEvent(const char* kind, HostId host, const std::string& detail)
      REQUIRES(mu_);

  const Seconds backoff_;
  const Seconds backoff_max_;
  Mutex& mu_;
  EngineLoop& loop_;
  HostSet& hosts_;  // entries under mu_; adapters called without it
  HostSweeper& sweeper_;
  RunRecorder& recorder_;
  RunStats& stats_ GUARDED_BY(mu_);
  MessageSink& messages_;  // thread-safe
  std::unique_ptr<Site> site_;
  LoopWatchdog* watchdog_ = nullptr;
  Seconds heartbeat_ = 0;  // the shortest of any host (SetSlot's)
};

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_HOST_MONITOR_H_
