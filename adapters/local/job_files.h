// File operations of a job's life on a POSIX file system: sizes of inputs,
// the inout copy, moving outputs to their destinations, reading the result
// file and removing the sandbox. Errors name the paths involved.
#ifndef GSRT_ADAPTERS_LOCAL_JOB_FILES_H_
#define GSRT_ADAPTERS_LOCAL_JOB_FILES_H_

#include <cstdint>
#include <initializer_list>
#include <string>

#include "runtime/base/status.h"

namespace gs {

// Size of a regular file; NotFound when it does not exist.
StatusOr<uint64_t> FileSize(const std::string& path);

// Copies `from` to `to` (created or truncated, mode 0644 before umask).
Status CopyFile(const std::string& from, const std::string& to);

// Moves `from` to `to`, replacing `to` atomically: rename(2), creating the
// parent directories of `to` when missing; across file systems (EXDEV)
// CopyFileKeepingMode, then `from` is removed.
Status MoveFile(const std::string& from, const std::string& to);

// Replaces `to` by a copy of `from` with `from`'s permission bits, through
// a temporary beside `to` (CopyFileAtomically), so that readers see the
// old file or the whole copy. The directory of `to` must exist.
Status CopyFileKeepingMode(const std::string& from, const std::string& to);

// Flags a result file left by an earlier job in a reused sandbox: its
// modification time becomes the epoch, which no write of the next worker
// leaves (open with O_TRUNC or any write sets it to now). Missing is fine.
void MarkStale(const std::string& path);

// The content of the result file a worker wrote; NotFound when it does not
// exist or is still marked stale (the worker did not write it).
StatusOr<std::string> ReadResultFile(const std::string& path,
                                     uint64_t max_bytes);

// Removes a result file still marked stale, so that a kept sandbox shows
// only what its own job wrote.
void RemoveIfStale(const std::string& path);

// Creates `dir` with mode 0700 (and its missing parents). An existing `dir`
// is emptied first: a stale sandbox of an earlier run must not leak files
// into this job.
Status MakeFreshDir(const std::string& dir);

// Removes directory `dir`: the `expected` entries by name, then the
// directory; a recursive removal only when the worker left other files.
void RemoveDir(const std::string& dir,
               std::initializer_list<const char*> expected);

// For the message of a failed job: "; the file system of DIR is full ..."
// when the one holding `dir` has (almost) no space left, which explains a
// worker that died without a word (its stderr could not be written
// either); "" otherwise.
std::string FullDiskNote(const std::string& dir);

}  // namespace gs

#endif  // GSRT_ADAPTERS_LOCAL_JOB_FILES_H_
