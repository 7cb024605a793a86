// What the engine does when a host or one copy is lost (paper 000,
// GTP/c/r): the lost copies are dropped, and every version an unfinished
// task still needs and that only the lost place held is recomputed by
// rewinding its producer, recursively; a copy anywhere else (another host,
// the master) makes that unnecessary. PlanRewind (runtime/graph/rewind.h)
// plans; this builds its picture from the graph and the data places,
// applies the plan and reports it. It also remembers where each task last
// ran, which the picture needs.
//
// Owned by the Engine; not locked by itself: every call is made with the
// engine's mutex held, from whichever thread found the loss. What it needs
// of the rest of the engine (the ready queue, the hosts' names, the
// observers) goes through Site, which it owns.
#ifndef GSRT_RUNTIME_ENGINE_REWINDER_H_
#define GSRT_RUNTIME_ENGINE_REWINDER_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/base/messages.h"
#include "runtime/base/mutex.h"
#include "runtime/engine/data_places.h"
#include "runtime/engine/run_stats.h"
#include "runtime/graph/file_table.h"
#include "runtime/graph/rewind.h"
#include "runtime/graph/task_graph.h"

namespace gs {

class Rewinder {
 public:
  // What a lost host's results cost (EngineHooks::rewind).
  enum class Mode {
    kGtpCR,    // "gtp-c-r": copies elsewhere are reused
    kGtpR,     // "gtp-r": everything placed on the lost host is rewound
    kRestart,  // "restart": every finished result counts as lost
  };
  // The mode a name means; nullopt for an unknown name.
  static std::optional<Mode> ParseMode(const std::string& name);

  // What the rewinder asks of the engine; called under the engine's mutex.
  class Site {
   public:
    virtual ~Site() = default;
    virtual size_t NumHosts() const = 0;
    virtual std::string HostName(HostId host) const = 0;
    // The host sees the master's files (its outputs are the master's).
    virtual bool SharesMasterFiles(HostId host) const = 0;
    // `task` must run (again): ready if its inputs exist, else waiting.
    virtual void Requeue(TaskId task) = 0;
    // `task` leaves the ready queue: it waits again.
    virtual void Unready(TaskId task) = 0;
    // A scheduling round is due.
    virtual void Wake() = 0;
    // Copies changed (the predictor's transfer times).
    virtual void TransfersChanged() = 0;
    // The observers' "rewind" event, on `host`.
    virtual void Rewound(const std::string& host,
                         const std::string& detail) = 0;
  };

  // The references must outlive this object.
  Rewinder(Mode mode, TaskGraph& graph, const FileTable& files,
           DataPlaces& data, RunStats& stats, MessageSink& messages,
           std::unique_ptr<Site> site);
  Rewinder(const Rewinder&) = delete;
  Rewinder& operator=(const Rewinder&) = delete;

  // Host `lost` is gone: its copies are dropped and the producers of
  // versions only it held rewound.
  void HostLost(const Mutex& mu, HostId lost, const std::string& why)
      REQUIRES(mu);
  // The copy of `v` on `host` turned out unusable (missing, unreadable): it
  // is dropped, and if no copy is left its producer is rewound.
  void CopyLost(const Mutex& mu, VersionId v, HostId host,
                const std::string& why) REQUIRES(mu);

  // `task`'s outputs are made on `host` (the last placement that counts).
  void SetHostOf(TaskId task, HostId host);
  // Where each task last ran (kNoHost, or short: not yet).
  const std::vector<HostId>& task_hosts() const { return task_host_; }

 private:
  // Rewinds after `lost_host` lost its copies: all of them, or `only`'s.
  void Rewind(HostId lost_host, VersionId only, const std::string& why);
  // PlanRewind's picture: the master is host NumHosts(), `lost` stands for
  // what is gone.
  std::vector<RewindVersion> Versions(HostId lost, VersionId only) const;
  std::vector<RewindTask> Tasks() const;
  // Forgets the lost copies, requeues the rewound tasks and makes their
  // unfinished readers wait. Returns how many had finished.
  uint32_t Apply(const RewindPlan& plan, HostId lost, VersionId only);
  void RewaitReaders();
  void Report(const RewindPlan& plan, HostId lost_host, VersionId only,
              const std::string& why, uint32_t finished);

  const Mode mode_;
  TaskGraph& graph_;
  const FileTable& files_;
  DataPlaces& data_;
  RunStats& stats_;
  MessageSink& messages_;
  std::unique_ptr<Site> site_;
  std::vector<HostId> task_host_;  // where each task last ran
};

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_REWINDER_H_
