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
#include <vector>

#include "runtime/base/status.h"

namespace gs {

// What Stat() or Examine() found at a path.
struct FileInfo {
  bool exists = false;     // a regular file (Examine: anything) is there
  bool directory = false;  // Examine only: it is a directory
  uint64_t size = 0;
  int64_t mtime_ns = 0;  // last modification, nanoseconds since the epoch
  uint64_t inode = 0;    // changes when another file is renamed into place
};

// How Rename (across file systems) and CopyAtomically make the copy that
// replaces their target.
struct ReplaceOptions {
  // The copy gets the permission bits of `from`; otherwise those a new
  // file gets (0666 before the umask).
  bool keep_mode = false;
  // The copy is flushed to disk before it replaces the target. Off for
  // files rebuilt from elsewhere when the machine crashes.
  bool sync = true;
  // Rename only: creates the missing directories of `to` when the rename
  // finds them missing (no extra call when they are there).
  bool make_parents = false;
};

// One entry of a directory (ListDir).
struct DirEntry {
  enum class Kind { kRegular, kDirectory, kOther, kUnknown };
  std::string_view name;       // never "." or ".."; valid during the call
  Kind kind = Kind::kUnknown;  // kUnknown: the file system did not say
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

  // What is at `path`, of any kind, following symbolic links: NotFound
  // when nothing is there; another error when it cannot be looked at (a
  // directory on the way that cannot be searched). One call.
  virtual StatusOr<FileInfo> Examine(const std::string& path) = 0;

  // Sets the modification time of the file at `path` (nanoseconds since
  // the epoch; 0 is a mark no write leaves) and nothing else.
  virtual Status SetModified(const std::string& path, int64_t mtime_ns) = 0;

  // Calls `entry` with each entry of the directory `path`, in no order,
  // until it returns false. Fails when `path` is not a directory that can
  // be read.
  virtual Status ListDir(const std::string& path,
                         const std::function<bool(const DirEntry&)>& entry) = 0;

  // Bytes an unprivileged user may still write on the file system holding
  // `path`.
  virtual StatusOr<uint64_t> FreeBytes(const std::string& path) = 0;

  // Moves the file or directory at `from` onto `to`, replacing `to` (a
  // directory only when it is empty). Across file systems, where a rename
  // cannot, it copies a file (CopyAtomically: `to` keeps its old content
  // if the copy fails) and then removes `from`.
  virtual Status Rename(const std::string& from, const std::string& to) = 0;
  // Rename, with `options` for the copy across file systems (and parents).
  virtual Status RenameWith(const std::string& from, const std::string& to,
                            const ReplaceOptions& options) = 0;

  // Replaces `to` by a copy of the file at `from` through a temporary
  // beside it, so that readers see the old file or the whole copy. The
  // directory of `to` must exist.
  virtual Status CopyAtomically(const std::string& from, const std::string& to,
                                const ReplaceOptions& options) = 0;

  // Removes the file or empty directory at `path`; nothing there is fine.
  virtual Status Remove(const std::string& path) = 0;

  // Removes the empty directory at `path` (one call where Remove may take
  // two); nothing there is fine, a directory with entries is an error.
  virtual Status RemoveDir(const std::string& path) = 0;

  // Removes `path` and everything under it; nothing there is fine.
  virtual Status RemoveAll(const std::string& path) = 0;

  // Creates the directory `path` and its missing parents.
  virtual Status CreateDirs(const std::string& path) = 0;

  // Creates the directory `path`, which only its owner may use (mode
  // 0700), in one call. FailedPrecondition when something is already at
  // `path`, NotFound when its parent is missing.
  virtual Status MakePrivateDir(const std::string& path) = 0;

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
