// Writing a file so that readers see the old content or the whole new one,
// never a part: the bytes go to a temporary beside the destination (same
// directory, so same file system), which is flushed and then renamed over
// it. The one way the project replaces a file.
#ifndef GSRT_RUNTIME_BASE_FILE_IO_H_
#define GSRT_RUNTIME_BASE_FILE_IO_H_

#include <sys/types.h>

#include <string>
#include <string_view>

#include "runtime/base/status.h"

namespace gs {

struct AtomicWriteOptions {
  // Permissions of the new file, before the umask (as for open(2)).
  // Private unless asked otherwise, as mkstemp(3).
  mode_t mode = 0600;
  // fsync before the rename: the new content survives a crash of the
  // machine, and a reader on another node of a shared file system sees all
  // of it. Off where a crash loses the file's purpose anyway (a worker's
  // result), because it costs a disk flush per file.
  bool sync = true;
};

// A file being written under a temporary name ("PATH.gsrt-part-PID-N")
// beside `path`, renamed over it by Commit(). Destroyed (or Discard()ed)
// before Commit(), it leaves nothing behind. Errors name the path.
class PendingFile {
 public:
  // Creates the temporary; the directory of `path` must exist.
  static StatusOr<PendingFile> Create(std::string path,
                                      const AtomicWriteOptions& options = {});
  PendingFile(PendingFile&& other) noexcept;
  PendingFile& operator=(PendingFile&& other) noexcept;
  PendingFile(const PendingFile&) = delete;
  PendingFile& operator=(const PendingFile&) = delete;
  ~PendingFile();

  // On error the temporary is removed and the file is discarded.
  Status Append(std::string_view bytes);
  // Appends the whole content of the file at `source`.
  Status AppendFileContent(const std::string& source);
  // Flushes (when `sync`), closes and renames the temporary over the path.
  Status Commit();
  // Removes the temporary; Append and Commit then fail.
  void Discard();

  const std::string& path() const { return path_; }
  const std::string& temp_path() const { return temp_; }

 private:
  PendingFile(std::string path, std::string temp, int fd, bool sync);
  Status Fail(const std::string& what, int err);

  std::string path_;
  std::string temp_;
  int fd_ = -1;
  bool sync_ = true;
};

// Replaces the file at `path` by `bytes` (a PendingFile written at once).
Status WriteFileAtomically(const std::string& path, std::string_view bytes,
                           const AtomicWriteOptions& options = {});

// Replaces the file at `to` by a copy of the file at `from`.
Status CopyFileAtomically(const std::string& from, const std::string& to,
                          const AtomicWriteOptions& options = {});

}  // namespace gs

#endif  // GSRT_RUNTIME_BASE_FILE_IO_H_
