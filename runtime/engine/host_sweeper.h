// Clearing hosts of what a run leaves when connections are lost (sandboxes
// of killed jobs, dropped copies, partial temporaries, a killed master's
// copies): whoever connects to such a host next clears it (Adapter::Sweep)
// before anything new arrives, this run at its start and when the host
// comes back, the next run of the same work dir otherwise; at GS_Off each
// host must answer after the run's last removals (docs/design.md, "Remote
// hosts: agents and data").
// Owned by the Engine; works on its HostSet (the hosts' left_behind,
// final_try and confirming flags) and owns GS_Off's sweep state. Every
// call says its thread; those that lock take the engine's mutex (given at
// construction), FinalSweep runs with it held. What it needs of the rest
// of the engine goes through Site, which it owns.
#ifndef GSRT_RUNTIME_ENGINE_HOST_SWEEPER_H_
#define GSRT_RUNTIME_ENGINE_HOST_SWEEPER_H_

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "runtime/base/clock.h"
#include "runtime/base/messages.h"
#include "runtime/base/mutex.h"
#include "runtime/base/status.h"
#include "runtime/engine/host_set.h"
#include "runtime/engine/run_stats.h"

namespace gs {

class HostSweeper {
 public:
  class Site {
   public:
    virtual ~Site() = default;
    // Under the mutex: the run is ending (no more reconnect answers).
    virtual bool Stopping() const = 0;
    // Runs `fn` on the engine thread, after what is already posted there.
    virtual void Post(std::function<void()> fn) = 0;
    // Under the mutex: the file names of the copies the engine counts on
    // at `host` (a sweep keeps them).
    virtual std::vector<std::string> KeptFiles(HostId host) const = 0;
    // Under the mutex: the copies a resume fetched and takes over.
    virtual std::vector<std::pair<HostId, std::string>> ResumedCopies()
        const = 0;
    // Engine thread, no lock: removes the run's copies on other hosts.
    virtual void RemoveRemoteCopies() = 0;
    // Engine thread, no lock: one attempt to reconnect `host`; its end
    // comes back through ReconnectEnded.
    virtual void Reconnect(HostId host) = 0;
    // Under the mutex: a reconnect attempt answered (the host is usable
    // again if `ok`).
    virtual void ReconnectAnswered(HostId host, bool ok) = 0;
    // Under the mutex: the history records the host's loss.
    virtual void RecordHostLost(HostId host, const std::string& why) = 0;
    // Master thread, under the mutex: waits (at most `bound`) until `done`
    // holds, re-evaluated at each NotifyWaiters.
    virtual void Wait(MutexLock& lock, Seconds bound,
                      std::function<bool()> done) = 0;
    // Under the mutex: the master's waits look again.
    virtual void NotifyWaiters() = 0;
  };

  // This master's name for Adapter::Sweep: its machine and `work_dir`.
  static std::string OwnerOf(const std::string& work_dir);

  // `owner`: OwnerOf(work_dir). In `virtual_time` hosts keep no files: no
  // final sweep. The references must outlive this object.
  HostSweeper(std::string owner, bool virtual_time, HostSet& hosts, Mutex& mu,
              RunStats& stats, MessageSink& messages,
              std::unique_ptr<Site> site);
  HostSweeper(const HostSweeper&) = delete;
  HostSweeper& operator=(const HostSweeper&) = delete;

  // The run's clock (set once, before the engine thread starts).
  void set_clock(Clock* clock) { clock_ = clock; }

  // Engine thread, once the hosts are connected and a resume fetched what
  // it takes over: sweeps every host that keeps its own files.
  void SweepAtStart();
  // Engine thread, on a fresh connection: sweeps all but the copies the
  // engine counts on there.
  void SweepHost(HostId host);
  // Master thread at GS_Off, with `lock` on the engine's mutex: the run's
  // copies on other hosts are removed and each host must answer after
  // them (bounded); then a few seconds of attempts to reach each host lost
  // and not back (or whose connection ended unnoticed), to sweep it.
  void FinalSweep(MutexLock& lock);
  // Engine thread: a reconnect ended. True when FinalSweep waits for it
  // (and it was handled); false for an ordinary one.
  bool ReconnectEnded(HostId host, const Status& s);

 private:
  // GS_Off, first: removals, then each host's answer (ConfirmHost).
  void ConfirmRemovals(MutexLock& lock);
  void ConfirmHost(HostId host);
  // Engine thread: which hosts FinalSweep tries, and their first attempts.
  void BeginFinalSweep();
  // Master thread: waits (at most `bound`) until `begun` holds and no host
  // has its `pending` flag set.
  void WaitForHosts(MutexLock& lock, Seconds bound, const bool& begun,
                    bool HostEntry::*pending);
  // Under the mutex: a host found gone once the run is over: no rewind,
  // only the sweep.
  void TakeForLostAtTheEnd(HostId host, const std::string& why);

  const std::string owner_;
  const bool virtual_time_;
  HostSet& hosts_;
  Mutex& mu_;
  RunStats& stats_;
  MessageSink& messages_;
  std::unique_ptr<Site> site_;
  Clock* clock_ = nullptr;
  // GS_Off's bounded waits for hosts, under the mutex.
  bool sweeping_lost_hosts_ = false;  // FinalSweep waits for attempts
  Seconds until_ = 0;                 // for hosts to answer
  bool begun_ = false;                // BeginFinalSweep has chosen them
  bool confirms_posted_ = false;      // ConfirmRemovals asked them
};

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_HOST_SWEEPER_H_
