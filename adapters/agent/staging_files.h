// File operations of data staging, shared by both ends of the agent
// protocol: confining host paths to the agent's work dir, and receiving a
// file under a temporary name that becomes the real one only after its
// size and hash were checked (a half-received file never counts).
#ifndef GSRT_ADAPTERS_AGENT_STAGING_FILES_H_
#define GSRT_ADAPTERS_AGENT_STAGING_FILES_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "runtime/base/file_io.h"
#include "runtime/base/hashing.h"
#include "runtime/base/status.h"

namespace gs {

// Resolves `path` (absolute, or relative to `root`) to an absolute path
// strictly inside `root`, which must be canonical (no symlinks, no
// trailing slash). Refused (PermissionDenied): any ".." component, a
// symlink that leads out of `root`, `root` itself. InvalidArgument: an
// empty path or one holding a NUL byte.
StatusOr<std::string> ConfinedPath(const std::string& root,
                                   std::string_view path);

// A file being received: a PendingFile (runtime/base/file_io.h) that
// becomes the real one only if the size and hash announced by the sender
// match what arrived; destroying the object before Commit() removes the
// temporary.
class IncomingFile {
 public:
  // Creates the destination's missing parent directories and the
  // temporary.
  static StatusOr<std::unique_ptr<IncomingFile>> Create(std::string path);

  IncomingFile(const IncomingFile&) = delete;
  IncomingFile& operator=(const IncomingFile&) = delete;

  Status Append(std::string_view data);

  // Checks that exactly `size` bytes with ContentHash `hash` arrived, then
  // renames the temporary over the destination.
  Status Commit(uint64_t size, uint64_t hash);

  uint64_t size() const { return hash_.size(); }
  const std::string& path() const { return file_.path(); }

 private:
  explicit IncomingFile(PendingFile file) : file_(std::move(file)) {}

  PendingFile file_;
  ContentHash hash_;
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_AGENT_STAGING_FILES_H_
