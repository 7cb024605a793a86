// Moves versions between the master and the hosts: a job's inputs onto its
// host before it starts, a version onto the master before the program or
// GS_Off reads it, and the removal of data nobody reads any more. Where
// versions are and which transfers are under way is DataPlaces'
// (data_places.h); this runs the transfers through the hosts' adapters
// (Put, Get, Remove) and records what they cost; it owns the places. Outputs
// stay on the host that made them until someone needs them elsewhere.
//
// Owned by the Engine. Transfers start and end on the engine thread; each
// takes the engine's mutex (given at construction) to read and update the
// places, and calls adapters without it. CollectGarbage is called with it
// held. What only the engine knows (a host found lost, a copy found lost,
// the journal keeping collected data) goes through Site, which it owns.
#ifndef GSRT_RUNTIME_ENGINE_DATA_MOVER_H_
#define GSRT_RUNTIME_ENGINE_DATA_MOVER_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "runtime/base/clock.h"
#include "runtime/base/file_system.h"
#include "runtime/base/mutex.h"
#include "runtime/base/status.h"
#include "runtime/engine/data_places.h"
#include "runtime/engine/host_set.h"
#include "runtime/engine/run_recorder.h"
#include "runtime/graph/task_graph.h"

namespace boost::asio {
class io_context;
}

namespace gs {

class DataMover {
 public:
  using DoneFn = std::function<void(Status)>;

  // Called with the engine's mutex held.
  class Site {
   public:
    virtual ~Site() = default;
    // What transfer times are predicted from changed (a copy, a size, a
    // link's measured speed).
    virtual void TransfersChanged() = 0;
    // A fetch from `host` failed and the host no longer answers.
    virtual void HostLost(HostId host, const std::string& why) = 0;
    // `host` answers but cannot give its copy of `v` (deleted, corrupt).
    virtual void CopyLost(VersionId v, HostId host, const std::string& why) = 0;
    // A fetch to the master ended, well or not: the master's waits look.
    virtual void Fetched() = 0;
    // `v` is read by nobody any more: true when the journal keeps its data
    // until its next commit (the engine deletes it then).
    virtual bool KeepsCollected(VersionId v) = 0;
  };

  // The references must outlive this object.
  // The places' versions are under `work_dir`/data on the master.
  DataMover(Mutex& mu, FileSystem& fs, std::string work_dir,
            const FileTable& files, TaskGraph& graph, HostSet& hosts,
            RunRecorder& recorder, std::unique_ptr<Site> site);
  DataMover(const DataMover&) = delete;
  DataMover& operator=(const DataMover&) = delete;

  // Where versions are, and the transfers under way (under the mutex).
  DataPlaces& places() { return places_; }
  const DataPlaces& places() const { return places_; }

  // Start: the engine thread's loop and clock.
  void set_loop(boost::asio::io_context* io, Clock* clock) {
    io_ = io;
    clock_ = clock;
  }

  // Engine thread: copies every one of `inputs` onto `host`; `done` once
  // all ended, with the first error or Ok.
  void Stage(HostId host, const std::vector<VersionId>& inputs, DoneFn done);
  // Engine thread: copies `v` onto `host` (through the master when only
  // other hosts hold it); a request for a copy under way joins it.
  void EnsureOnHost(VersionId v, HostId host, DoneFn done);
  // Engine thread: copies `v` onto the master's machine from a usable
  // host holding it.
  void FetchToMaster(VersionId v, DoneFn done);

  // Versions nobody reads any more: their files on the master go to
  // `doomed` (removed outside the lock with RemoveFiles), remote copies
  // through the adapters on the engine thread.
  // `mu`: the engine's mutex, held.
  void CollectGarbage(const Mutex& mu, std::vector<std::string>* doomed)
      REQUIRES(mu);
  void RemoveFiles(const std::vector<std::string>& paths);
  // Engine thread, no lock held: removes every remote copy of `v`.
  void RemoveVersionData(VersionId v);
  // At the run's end: every copy still on another host (final versions,
  // inputs sent there, versions not collected yet).
  void RemoveRemoteCopies();

 private:
  // Whether `v` is the user's own file and the master has none: nothing is
  // sent, and the job starts without it on the host as it would on the
  // master (an inout file a task creates). Measures the file otherwise.
  bool UserFileAbsent(VersionId v) REQUIRES(mu_);
  // A fetch to the master ended: the copy is there, or its host or the
  // copy is found lost.
  void Fetched(VersionId v, HostId from, Seconds started, const Status& s)
      REQUIRES(mu_);
  // The observers' "transfer" event.
  void ReportTransfer(VersionId v, const std::string& host,
                      const std::string& detail, Seconds started) REQUIRES(mu_);

  Mutex& mu_;
  FileSystem& fs_;
  TaskGraph& graph_ GUARDED_BY(mu_);
  DataPlaces places_ GUARDED_BY(mu_);
  HostSet& hosts_;  // entries read under mu_; adapters called without it
  RunRecorder& recorder_;
  std::unique_ptr<Site> site_;
  boost::asio::io_context* io_ = nullptr;  // set_loop's
  Clock* clock_ = nullptr;                 // set_loop's
};

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_DATA_MOVER_H_
