// The file-system calls of the master's side, behind an interface (leveldb's
// Env): RealFileSystem() makes them on this machine; tests hand the engine
// an in-memory fake (tests/support/mem_file_system.h) so where versions live,
// what is staged and what is left at GS_Off are checked without a disk.
// Descriptors the user's program gets (GS_Open) are not files of this seam:
// they must be real.
#ifndef GSRT_RUNTIME_BASE_FILE_SYSTEM_H_
#define GSRT_RUNTIME_BASE_FILE_SYSTEM_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "runtime/base/status.h"

namespace gs {

// What Stat() found at a path.
struct FileInfo {
  bool exists = false;  // a regular file is there
  uint64_t size = 0;
  int64_t mtime_ns = 0;  // last modification, nanoseconds since the epoch
  uint64_t inode = 0;    // changes when another file is renamed into place
};

// Held until destroyed (FileSystem::Lock).
class FileLock {
 public:
  virtual ~FileLock() = default;
};

class FileSystem {
 public:
  virtual ~FileSystem() = default;

  // The regular file at `path`; `exists` is false when there is none.
  virtual FileInfo Stat(const std::string& path) = 0;

  // Calls `chunk` with the bytes of the file at `path`, in order. NotFound
  // when it cannot be opened; IoError when reading fails part way.
  virtual Status Read(const std::string& path,
                      const std::function<void(std::string_view)>& chunk) = 0;

  // Creates or truncates the file at `path` and writes `bytes`.
  virtual Status WriteFile(const std::string& path, std::string_view bytes) = 0;

  // Makes `to` a copy of the file at `from`, replacing `to`.
  virtual Status CopyFile(const std::string& from, const std::string& to) = 0;

  // Moves the file at `from` onto `to`, replacing `to`. Across file systems,
  // where a rename cannot, it copies (atomically: `to` keeps its old content
  // if the copy fails) and then removes `from`.
  virtual Status Rename(const std::string& from, const std::string& to) = 0;

  // Removes the file or empty directory at `path`; nothing there is fine.
  virtual Status Remove(const std::string& path) = 0;

  // Removes `path` and everything under it; nothing there is fine.
  virtual Status RemoveAll(const std::string& path) = 0;

  // Creates the directory `path` and its missing parents.
  virtual Status CreateDirs(const std::string& path) = 0;

  // Only the owner may read, write or enter the directory `path`.
  virtual Status RestrictToOwner(const std::string& path) = 0;

  // An exclusive lock on the file at `path` (created if missing), held
  // until the returned object is destroyed, and by the kernel only as long
  // as this process lives. Unavailable when another holder has it.
  virtual StatusOr<std::unique_ptr<FileLock>> Lock(const std::string& path) = 0;
};

// This machine's file system (POSIX calls). Never destroyed.
FileSystem& RealFileSystem();

}  // namespace gs

#endif  // GSRT_RUNTIME_BASE_FILE_SYSTEM_H_
