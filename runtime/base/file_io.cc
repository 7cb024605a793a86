#include "runtime/base/file_io.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <utility>

namespace gs {

namespace {

// Temporaries are unique within the process (the counter) and across
// processes on a machine (the pid); a leftover of a crashed process whose
// pid came back is skipped by O_EXCL.
std::string TempName(const std::string& path) {
  static std::atomic<unsigned> counter{0};
  return path + ".gsrt-part-" + std::to_string(::getpid()) + "-" +
         std::to_string(counter.fetch_add(1, std::memory_order_relaxed));
}

// Writes all of `bytes`; 0 or the errno of the failure.
int WriteAllTo(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return 0;
}

}  // namespace

StatusOr<PendingFile> PendingFile::Create(std::string path,
                                          const AtomicWriteOptions& options) {
  constexpr int kFlags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW;
  std::string temp;
  int fd = -1, err = 0;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    temp = TempName(path);
    fd = ::open(temp.c_str(), kFlags, options.mode);
    err = errno;
    if (fd < 0 && err != EEXIST) break;
  }
  if (fd < 0) return Status::FromErrno("cannot create " + temp, err);
  return PendingFile(std::move(path), std::move(temp), fd, options.sync);
}

PendingFile::PendingFile(std::string path, std::string temp, int fd, bool sync)
    : path_(std::move(path)), temp_(std::move(temp)), fd_(fd), sync_(sync) {}

PendingFile::PendingFile(PendingFile&& other) noexcept
    : path_(std::move(other.path_)),
      temp_(std::exchange(other.temp_, std::string())),
      fd_(std::exchange(other.fd_, -1)),
      sync_(other.sync_) {}

PendingFile& PendingFile::operator=(PendingFile&& other) noexcept {
  if (this != &other) {
    Discard();
    path_ = std::move(other.path_);
    temp_ = std::exchange(other.temp_, std::string());
    fd_ = std::exchange(other.fd_, -1);
    sync_ = other.sync_;
  }
  return *this;
}

PendingFile::~PendingFile() { Discard(); }

void PendingFile::Discard() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!temp_.empty()) ::unlink(temp_.c_str());
  temp_.clear();
}

Status PendingFile::Fail(const std::string& what, int err) {
  Status s = Status::FromErrno(what, err);
  Discard();
  return s;
}

Status PendingFile::Append(std::string_view bytes) {
  if (fd_ < 0) return Status::FailedPrecondition(path_ + " is not open");
  if (const int err = WriteAllTo(fd_, bytes); err != 0) {
    return Fail("cannot write " + temp_, err);
  }
  return Status::Ok();
}

Status PendingFile::AppendFileContent(const std::string& source) {
  if (fd_ < 0) return Status::FailedPrecondition(path_ + " is not open");
  const int in = ::open(source.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) {
    const int err = errno;
    return Fail("cannot read " + source, err);
  }
  // copy_file_range copies inside the kernel (or shares extents); where it
  // cannot (another file system type, an old kernel), read and write.
  bool kernel_copy = true;
  char buf[1 << 16];
  while (true) {
    ssize_t n = -1;
    if (kernel_copy) {
      n = ::copy_file_range(in, nullptr, fd_, nullptr, 1 << 30, 0);
      if (n < 0 && (errno == EXDEV || errno == EINVAL || errno == ENOSYS ||
                    errno == EOPNOTSUPP)) {
        kernel_copy = false;
        continue;
      }
    } else {
      n = ::read(in, buf, sizeof buf);
      const int err = n > 0 ? WriteAllTo(fd_, std::string_view(buf, n)) : 0;
      if (err != 0) {
        ::close(in);
        return Fail("cannot write " + temp_, err);
      }
    }
    if (n == 0) break;
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(in);
      return Fail("cannot copy " + source + " to " + temp_, err);
    }
  }
  ::close(in);
  return Status::Ok();
}

Status PendingFile::Commit() {
  if (fd_ < 0) return Status::FailedPrecondition(path_ + " is not open");
  if (sync_ && ::fsync(fd_) != 0) {
    const int err = errno;
    return Fail("cannot write " + temp_, err);
  }
  const int closed = ::close(fd_);
  const int close_err = errno;
  fd_ = -1;
  if (closed != 0) return Fail("cannot write " + temp_, close_err);
  if (std::rename(temp_.c_str(), path_.c_str()) != 0) {
    const int err = errno;
    return Fail("cannot rename " + temp_ + " to " + path_, err);
  }
  temp_.clear();
  return Status::Ok();
}

Status WriteFileAtomically(const std::string& path, std::string_view bytes,
                           const AtomicWriteOptions& options) {
  StatusOr<PendingFile> file = PendingFile::Create(path, options);
  if (!file.ok()) return file.status();
  if (Status s = file->Append(bytes); !s.ok()) return s;
  return file->Commit();
}

Status CopyFileAtomically(const std::string& from, const std::string& to,
                          const AtomicWriteOptions& options) {
  StatusOr<PendingFile> file = PendingFile::Create(to, options);
  if (!file.ok()) return file.status();
  if (Status s = file->AppendFileContent(from); !s.ok()) return s;
  return file->Commit();
}

}  // namespace gs
