// This master's work directory (runtime.work_dir): the file system the
// engine's own files go through, the lock that makes the directory one
// master's, its data folder, and the job numbers given out in it, which
// are never reused across runs (job_numbers.h).
//
// Owned by the Engine. Prepare and CleanUp run on the master's thread
// (before the engine thread starts and after it ended); the job numbers'
// Next is called under the engine's mutex.
#ifndef GSRT_RUNTIME_ENGINE_WORK_DIR_H_
#define GSRT_RUNTIME_ENGINE_WORK_DIR_H_

#include <memory>
#include <string>

#include "runtime/base/file_system.h"
#include "runtime/base/messages.h"
#include "runtime/base/status.h"
#include "runtime/engine/job_numbers.h"

namespace gs {

class WorkDir {
 public:
  // `path` is absolute. `fs` and `messages` must outlive this.
  WorkDir(std::string path, FileSystem& fs, MessageSink& messages);
  WorkDir(const WorkDir&) = delete;
  WorkDir& operator=(const WorkDir&) = delete;

  // Before anything under the directory is touched: locks it (a second
  // master must not remove, rename or resume the first one's files), makes
  // its data folder and makes the directory readable by its owner only.
  // Fails naming the directory and what to do.
  Status Prepare();
  // After the run: removes the versions' data and the jobs' sandboxes, and
  // records the last job number given out.
  void CleanUp();

  const std::string& path() const { return path_; }
  FileSystem& fs() { return fs_; }
  JobNumbers& job_numbers() { return job_numbers_; }

 private:
  const std::string path_;
  FileSystem& fs_;
  std::unique_ptr<FileLock> lock_;  // held from Prepare on
  JobNumbers job_numbers_;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_WORK_DIR_H_
