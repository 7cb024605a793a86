// The files the master touches itself: those the program opened with
// GS_Open and has not closed yet, and, at GS_Off, each file's final version
// put under the user's name (kept in WORK_DIR/unsaved/ when it cannot be,
// and noted when it cannot be made or fetched). Owned by the Engine; every
// call is made with the engine's mutex held, on the master's thread; the
// waits for a version (its producer, its transfer to the master) go
// through Site, which it owns and which releases the mutex while waiting.
#ifndef GSRT_RUNTIME_ENGINE_MASTER_FILES_H_
#define GSRT_RUNTIME_ENGINE_MASTER_FILES_H_

#include <memory>
#include <string>
#include <unordered_map>

#include "runtime/base/file_system.h"
#include "runtime/base/mutex.h"
#include "runtime/base/status.h"
#include "runtime/engine/data_places.h"
#include "runtime/engine/host_set.h"
#include "runtime/engine/run_naming.h"
#include "runtime/engine/run_stats.h"
#include "runtime/graph/file_table.h"
#include "runtime/graph/task_graph.h"

namespace gs {

class MasterFiles {
 public:
  // What a descriptor from GS_Open holds: the version it reads (held so it
  // is not collected) and the one it writes.
  struct OpenFile {
    VersionId read = kNoVersion;
    VersionId write = kNoVersion;
  };

  // What finalizing asks of the engine; `lock` holds the engine's mutex
  // and is released while waiting.
  class Site {
   public:
    virtual ~Site() = default;
    // Waits until `v` is written; fails when its producer failed (`name`
    // names the file in the error).
    virtual Status WaitVersion(MutexLock& lock, VersionId v,
                               const char* name) = 0;
    // Waits until `v`'s data is on the master's machine.
    virtual Status BringToMaster(MutexLock& lock, VersionId v) = 0;
    // A scheduling round is due.
    virtual void Wake() = 0;
  };

  // Versions live under `work_dir`/data; what cannot be put in place goes
  // to `work_dir`/unsaved. The references must outlive this object.
  MasterFiles(std::string work_dir, FileSystem& fs, const FileTable& files,
              TaskGraph& graph, const DataPlaces& data, const HostSet& hosts,
              const RunNaming& naming, RunStats& stats,
              std::unique_ptr<Site> site);
  MasterFiles(const MasterFiles&) = delete;
  MasterFiles& operator=(const MasterFiles&) = delete;

  // GS_Open gave the program `fd`.
  void Opened(int fd, OpenFile entry) { open_[fd] = entry; }
  // GS_Close: takes `fd`'s entry; false when GS_Open did not give it.
  bool TakeOpen(int fd, OpenFile* entry);

  // GS_Off: closes what the program left open; what was written to it
  // becomes its version.
  void CloseForgotten();
  // GS_Off: every file's final version under its user's name.
  void FinalizeAll(MutexLock& lock);

 private:
  // The newest version of `f` the master wrote itself (GS_Open) whose data
  // is still on the master; kNoVersion if none. A failed run leaves it in
  // place of a last version that was never made.
  VersionId LastMasterVersion(FileId f) const;
  // Puts file `f`'s final version `latest` under the user's name.
  void Finalize(MutexLock& lock, FileId f, VersionId latest);
  // Moves a final version that could not be put in place to
  // WORK_DIR/unsaved/ (kept after the run); its path there, "" if that
  // failed too.
  std::string KeepUnsaved(const std::string& version);

  const std::string work_dir_;
  FileSystem& fs_;
  const FileTable& files_;
  TaskGraph& graph_;
  const DataPlaces& data_;
  const HostSet& hosts_;
  const RunNaming& naming_;
  RunStats& stats_;
  std::unique_ptr<Site> site_;
  std::unordered_map<int, OpenFile> open_;  // by descriptor
};

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_MASTER_FILES_H_
