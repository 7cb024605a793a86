#include "adapters/agent/staging_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

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

IncomingFile::IncomingFile(std::string path, std::string temp, int fd)
    : path_(std::move(path)), temp_(std::move(temp)), fd_(fd) {}

IncomingFile::~IncomingFile() { Discard(); }

void IncomingFile::Discard() {
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
  }
  if (!committed_ && !temp_.empty()) {
    ::unlink(temp_.c_str());
    temp_.clear();
  }
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
  std::string temp = path + ".gsrt-part-XXXXXX";
  const int fd = ::mkostemp(temp.data(), O_CLOEXEC);
  if (fd < 0) {
    return Status::FromErrno("cannot create a temporary beside '" + path + "'",
                             errno);
  }
  // mkostemp makes 0600; staged data is as readable as any output.
  ::fchmod(fd, 0644);
  return std::unique_ptr<IncomingFile>(
      new IncomingFile(std::move(path), std::move(temp), fd));
}

Status IncomingFile::Append(std::string_view data) {
  if (fd_ < 0) return Status::FailedPrecondition("'" + path_ + "' is closed");
  hash_.Update(data);
  while (!data.empty()) {
    const ssize_t n = ::write(fd_, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      Discard();
      return Status::FromErrno("writing '" + path_ + "'" +
                                   (err == ENOSPC ? " (the disk is full)" : ""),
                               err);
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return Status::Ok();
}

Status IncomingFile::Commit(uint64_t size, uint64_t hash) {
  if (fd_ < 0) return Status::FailedPrecondition("'" + path_ + "' is closed");
  const uint64_t got = hash_.size();
  if (size != got || hash != hash_.Digest()) {
    Discard();
    if (size != got) {
      return Status::IoError("'" + path_ + "': " + std::to_string(got) +
                             " bytes arrived, the sender sent " +
                             std::to_string(size) +
                             "; the transfer lost data, retry it");
    }
    return Status::IoError("'" + path_ +
                           "': the content hash does not match the sender's; "
                           "the data was corrupted on the way, retry it");
  }
  if (::close(fd_) != 0) {
    fd_ = -1;
    const int err = errno;
    Discard();
    return Status::FromErrno("closing '" + path_ + "'", err);
  }
  fd_ = -1;
  if (::rename(temp_.c_str(), path_.c_str()) != 0) {
    const int err = errno;
    Discard();
    return Status::FromErrno(
        "cannot rename the received file to '" + path_ + "'", err);
  }
  committed_ = true;
  return Status::Ok();
}

}  // namespace gs
