// The staging role of the adapter seam, for hosts that do not see the
// master's files: copies both ways, checked, and deletes. Part of Adapter
// (adapter.h).
#ifndef GSRT_ADAPTERS_FILE_STAGER_H_
#define GSRT_ADAPTERS_FILE_STAGER_H_

#include <functional>
#include <string>
#include <vector>

#include "runtime/base/status.h"

namespace gs {

class FileStager {
 public:
  using StatusCallback = std::function<void(Status)>;

  virtual ~FileStager() = default;

  // True when the host sees the master's files at the same paths (local
  // processes, a shared file system): no staging is needed.
  virtual bool shares_master_files() const = 0;

  // The host's own directory for version files and job sandboxes (an
  // absolute path on the host).
  virtual std::string work_dir() const = 0;

  // Copies the master's file `master_path` to `host_path` on the host,
  // checked (size and hash) on arrival. `done` fires once, later.
  virtual void Put(std::string master_path, std::string host_path,
                   StatusCallback done) = 0;

  // Copies `host_path` on the host to `master_path` on the master's
  // machine (written under a temporary name, renamed when complete).
  virtual void Get(std::string host_path, std::string master_path,
                   StatusCallback done) = 0;

  // Deletes `host_path` on the host, if it is there (no answer).
  virtual void Remove(std::string host_path) = 0;

  // Clears the host's work dir of what earlier connections of this master
  // left there (a host killed or stopped with jobs running, a run killed):
  // every version file in its data dir but those named in `keep`, the job
  // sandboxes and the partial temporaries. `owner` names the master's work
  // dir; a host work dir another master used is left alone. Called on a
  // fresh connection, before any job or transfer (no answer). Hosts that
  // share the master's files, or whose work dir several agents share
  // (pilots), ignore it.
  virtual void Sweep(std::string owner, std::vector<std::string> keep) = 0;
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_FILE_STAGER_H_
