// File operations of a job's life in a sandbox, on the FileSystem seam:
// the stale mark of a reused result file, reading the result file, making
// and removing a sandbox, the note for a full disk. Errors name the paths
// involved. Called on the adapter's thread; `fs` is borrowed.
#ifndef GSRT_ADAPTERS_LOCAL_JOB_FILES_H_
#define GSRT_ADAPTERS_LOCAL_JOB_FILES_H_

#include <cstdint>
#include <initializer_list>
#include <string>

#include "runtime/base/file_system.h"
#include "runtime/base/status.h"

namespace gs {

// How a job's files are moved or copied into place (outputs, logs, Put and
// Get): they keep their permission bits, are not flushed (job files are
// rebuilt from the run's history when the machine crashes) and a move
// creates the missing directories of its destination.
ReplaceOptions JobFileReplace();

// Flags a result file left by an earlier job in a reused sandbox: its
// modification time becomes the epoch, which no write of the next worker
// leaves (open with O_TRUNC or any write sets it to now). Missing is fine.
void MarkStale(FileSystem& fs, const std::string& path);

// The content of the result file a worker wrote; NotFound when it does not
// exist or is still marked stale (the worker did not write it).
StatusOr<std::string> ReadResultFile(FileSystem& fs, const std::string& path,
                                     uint64_t max_bytes);

// Removes a result file still marked stale, so that a kept sandbox shows
// only what its own job wrote.
void RemoveIfStale(FileSystem& fs, const std::string& path);

// Creates `dir` with mode 0700 (and its missing parents). An existing `dir`
// is emptied first: a stale sandbox of an earlier run must not leak files
// into this job.
Status MakeFreshDir(FileSystem& fs, const std::string& dir);

// Removes directory `dir`: the `expected` entries by name, then the
// directory; a recursive removal only when the worker left other files.
void RemoveDir(FileSystem& fs, const std::string& dir,
               std::initializer_list<const char*> expected);

// For the message of a failed job: "; the file system of DIR is full ..."
// when the one holding `dir` has (almost) no space left, which explains a
// worker that died without a word (its stderr could not be written
// either); "" otherwise.
std::string FullDiskNote(FileSystem& fs, const std::string& dir);

}  // namespace gs

#endif  // GSRT_ADAPTERS_LOCAL_JOB_FILES_H_
