// One master per work directory: the lock every master takes before it
// touches anything under work_dir, holding its pid so that a second master
// can say whom it waits for. The kernel drops the lock of a killed master,
// so a stale lock file never blocks a later run.
#ifndef GSRT_RUNTIME_ENGINE_WORK_DIR_LOCK_H_
#define GSRT_RUNTIME_ENGINE_WORK_DIR_LOCK_H_

#include <memory>
#include <string>

#include "runtime/base/file_system.h"
#include "runtime/base/status.h"

namespace gs {

// Creates `work_dir` if needed and locks work_dir/lock, writing `pid` in
// it. Unavailable, naming the holder's pid and what to do, when another
// master holds it.
StatusOr<std::unique_ptr<FileLock>> LockWorkDir(FileSystem& fs,
                                                const std::string& work_dir,
                                                long pid);

// The refusal a second master prints; `holder` is the first one's pid as
// its lock file says ("" when it has not written it yet).
std::string AnotherMasterMessage(const std::string& work_dir,
                                 const std::string& holder);

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_WORK_DIR_LOCK_H_
