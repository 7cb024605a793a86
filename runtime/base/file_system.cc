// RealFileSystem(): the FileSystem seam over POSIX calls.
#include "runtime/base/file_system.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

#include "runtime/base/file_io.h"

namespace gs {

namespace {

namespace fs = std::filesystem;

class PosixFileLock : public FileLock {
 public:
  explicit PosixFileLock(int fd) : fd_(fd) {}
  ~PosixFileLock() override { ::close(fd_); }

 private:
  int fd_;
};

class PosixFileSystem : public FileSystem {
 public:
  FileInfo Stat(const std::string& path) override {
    FileInfo f;
    struct stat st;
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return f;
    f.exists = true;
    f.size = static_cast<uint64_t>(st.st_size);
    f.mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 +
                 st.st_mtim.tv_nsec;
    f.inode = st.st_ino;
    return f;
  }

  Status Read(const std::string& path,
              const std::function<void(std::string_view)>& chunk) override {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      return Status::NotFound("open " + path + ": " + std::strerror(errno));
    }
    constexpr size_t kChunk = 1 << 20;
    std::unique_ptr<char[]> buf(new char[kChunk]);  // not zeroed
    ssize_t n;
    while ((n = ::read(fd, buf.get(), kChunk)) != 0) {
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        int err = errno;
        ::close(fd);
        return Status::FromErrno("read " + path, err);
      }
      chunk(std::string_view(buf.get(), static_cast<size_t>(n)));
    }
    ::close(fd);
    return Status::Ok();
  }

  Status WriteFile(const std::string& path, std::string_view bytes) override {
    FILE* out = std::fopen(path.c_str(), "w");
    if (out == nullptr) return Status::FromErrno("open " + path, errno);
    int err = 0;
    if (std::fwrite(bytes.data(), 1, bytes.size(), out) != bytes.size()) {
      err = errno;
    }
    if (std::fclose(out) != 0 && err == 0) err = errno;
    if (err != 0) return Status::FromErrno("write " + path, err);
    return Status::Ok();
  }

  Status CopyFile(const std::string& from, const std::string& to) override {
    std::error_code ec;
    fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec);
    if (ec) {
      return Status::IoError("copy " + from + " to " + to + ": " +
                             ec.message());
    }
    return Status::Ok();
  }

  Status Rename(const std::string& from, const std::string& to) override {
    if (::rename(from.c_str(), to.c_str()) == 0) return Status::Ok();
    if (errno != EXDEV) {
      return Status::FromErrno("rename " + from + " to " + to, errno);
    }
    // The destination may be a user's file: a full disk midway must leave
    // its old content, not a truncated one (as rename(2) would have).
    AtomicWriteOptions options;
    options.mode = 0666;  // what creating it would give, after the umask
    if (Status s = CopyFileAtomically(from, to, options); !s.ok()) return s;
    ::unlink(from.c_str());
    return Status::Ok();
  }

  Status Remove(const std::string& path) override {
    std::error_code ec;
    fs::remove(path, ec);
    if (ec) return Status::IoError("remove " + path + ": " + ec.message());
    return Status::Ok();
  }

  Status RemoveAll(const std::string& path) override {
    std::error_code ec;
    fs::remove_all(path, ec);
    if (ec) return Status::IoError("remove " + path + ": " + ec.message());
    return Status::Ok();
  }

  Status CreateDirs(const std::string& path) override {
    std::error_code ec;
    fs::create_directories(path, ec);
    if (ec) return Status::IoError("create " + path + ": " + ec.message());
    return Status::Ok();
  }

  Status RestrictToOwner(const std::string& path) override {
    std::error_code ec;
    fs::permissions(path, fs::perms::owner_all, fs::perm_options::replace, ec);
    if (ec) return Status::IoError("chmod " + path + ": " + ec.message());
    return Status::Ok();
  }

  StatusOr<std::unique_ptr<FileLock>> Lock(const std::string& path) override {
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) return Status::FromErrno("cannot lock " + path, errno);
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      int err = errno;
      ::close(fd);
      if (err == EWOULDBLOCK) {
        return Status::Unavailable(path + " is locked by another process");
      }
      return Status::FromErrno("cannot lock " + path, err);
    }
    return std::unique_ptr<FileLock>(std::make_unique<PosixFileLock>(fd));
  }
};

}  // namespace

FileSystem& RealFileSystem() {
  static FileSystem* real = new PosixFileSystem;
  return *real;
}

}  // namespace gs
