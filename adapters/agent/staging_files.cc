#include "adapters/agent/staging_files.h"

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <utility>

namespace gs {

namespace fs = std::filesystem;

namespace {

// True when `p` is `root` or below it, compared by whole components.
bool IsWithin(const fs::path& p, const fs::path& root) {
  auto [r, q] = std::mismatch(root.begin(), root.end(), p.begin(), p.end());
  return r == root.end();
}

}  // namespace

StatusOr<std::string> ConfinedPath(const std::string& root,
                                   std::string_view path) {
  if (path.empty()) return Status::InvalidArgument("empty path");
  if (path.find('\0') != std::string_view::npos) {
    return Status::InvalidArgument("path holds a NUL byte");
  }
  if (path.back() == '/') {
    return Status::InvalidArgument("'" + std::string(path) +
                                   "' names a directory, not a file");
  }
  const std::string shown = "'" + std::string(path) + "'";
  fs::path p(path);
  for (const fs::path& part : p) {
    if (part == "..") {
      return Status::PermissionDenied(
          shown +
          " contains '..'; staged paths must stay inside the work "
          "dir " +
          root);
    }
  }
  if (p.is_relative()) p = fs::path(root) / p;
  std::error_code ec;
  // Resolves the symlinks of the part that exists.
  fs::path resolved = fs::weakly_canonical(p, ec);
  if (ec) return Status::FromErrno("cannot resolve " + shown, ec.value());
  const fs::path base(root);
  if (!IsWithin(resolved, base) || resolved == base) {
    return Status::PermissionDenied(
        shown + " is outside the work dir " + root +
        " (through a symlink, or not below it); the agent only stages "
        "files inside its work dir");
  }
  return resolved.string();
}

StatusOr<std::unique_ptr<IncomingFile>> IncomingFile::Create(std::string path) {
  const fs::path parent = fs::path(path).parent_path();
  std::error_code ec;
  if (!parent.empty()) fs::create_directories(parent, ec);
  if (ec) {
    return Status::FromErrno(
        "cannot create directory '" + parent.string() + "' for '" + path + "'",
        ec.value());
  }
  // Staged data is as readable as any output; no fsync: a crash of the
  // host loses the agent and its run with it.
  StatusOr<PendingFile> file =
      PendingFile::Create(std::move(path), {.mode = 0644, .sync = false});
  if (!file.ok()) return file.status();
  return std::unique_ptr<IncomingFile>(
      new IncomingFile(std::move(file).value()));
}

Status IncomingFile::Append(std::string_view data) {
  hash_.Update(data);
  return file_.Append(data);
}

Status IncomingFile::Commit(uint64_t size, uint64_t hash) {
  const uint64_t got = hash_.size();
  if (size != got || hash != hash_.Digest()) {
    file_.Discard();
    if (size != got) {
      return Status::IoError("'" + path() + "': " + std::to_string(got) +
                             " bytes arrived, the sender sent " +
                             std::to_string(size) +
                             "; the transfer lost data, retry it");
    }
    return Status::IoError("'" + path() +
                           "': the content hash does not match the sender's; "
                           "the data was corrupted on the way, retry it");
  }
  return file_.Commit();
}

}  // namespace gs
