#include "runtime/engine/work_dir.h"

#include <unistd.h>

#include <utility>

#include "runtime/engine/work_dir_lock.h"

namespace gs {

WorkDir::WorkDir(std::string path, FileSystem& fs, MessageSink& messages)
    : path_(std::move(path)), fs_(fs), job_numbers_(fs, messages, path_) {}

Status WorkDir::Prepare() {
  auto lock = LockWorkDir(fs_, path_, ::getpid());
  if (!lock.ok()) return lock.status();
  lock_ = std::move(lock).value();
  Status s = fs_.CreateDirs(path_ + "/data");
  if (!s.ok()) {
    return Status::IoError("cannot create the work directory " + path_ + ": " +
                           s.message() +
                           " (make it writable, or set runtime.work_dir in "
                           "gsrt.yaml to a directory you can write)");
  }
  // Versions may hold the user's data: nobody else reads them.
  (void)fs_.RestrictToOwner(path_);
  return Status::Ok();
}

void WorkDir::CleanUp() {
  (void)fs_.RemoveAll(path_ + "/data");
  // Every job of this run has ended and moved its sandbox away; what is
  // left is an earlier, killed master's (its workers died with it), which
  // the journal does not need: a resumed run ran those jobs again.
  (void)fs_.RemoveAll(path_ + "/jobs");
  // No number is given out any more and none above this one was: the next
  // run continues right after it instead of after the reserved block.
  job_numbers_.RecordLastUsed();
}

}  // namespace gs
