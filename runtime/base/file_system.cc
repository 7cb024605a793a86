// RealFileSystem(): the FileSystem seam over POSIX calls.
#include "runtime/base/file_system.h"

#include <dirent.h>  // DT_REG, DT_DIR
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
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

// The record getdents64(2) fills; glibc declares no such type.
struct linux_dirent64 {
  uint64_t d_ino;
  int64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[];
};

bool IsDotOrDotDot(const char* name) {
  return name[0] == '.' &&
         (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'));
}

DirEntry::Kind KindOf(unsigned char d_type) {
  switch (d_type) {
    case DT_REG:
      return DirEntry::Kind::kRegular;
    case DT_DIR:
      return DirEntry::Kind::kDirectory;
    case DT_UNKNOWN:
      return DirEntry::Kind::kUnknown;
    default:
      return DirEntry::Kind::kOther;
  }
}

int64_t MtimeNs(const struct stat& st) {
  return static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 +
         st.st_mtim.tv_nsec;
}

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
    f.mtime_ns = MtimeNs(st);
    f.inode = st.st_ino;
    return f;
  }

  StatusOr<FileInfo> Examine(const std::string& path) override {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) {
      if (errno == ENOENT) {
        return Status::NotFound("'" + path + "' does not exist");
      }
      return Status::FromErrno("stat '" + path + "'", errno);
    }
    FileInfo f;
    f.exists = true;
    f.directory = S_ISDIR(st.st_mode);
    f.size = static_cast<uint64_t>(st.st_size);
    f.mtime_ns = MtimeNs(st);
    f.inode = st.st_ino;
    return f;
  }

  Status SetModified(const std::string& path, int64_t mtime_ns) override {
    const timespec times[2] = {
        {0, UTIME_OMIT},
        {static_cast<time_t>(mtime_ns / 1000000000), mtime_ns % 1000000000}};
    if (::utimensat(AT_FDCWD, path.c_str(), times, 0) != 0) {
      return Status::FromErrno("set the time of '" + path + "'", errno);
    }
    return Status::Ok();
  }

  // Raw getdents64: opendir() would add an fstat and a 32 KiB buffer.
  Status ListDir(const std::string& path,
                 const std::function<bool(const DirEntry&)>& entry) override {
    const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
      return Status::FromErrno("open directory '" + path + "'", errno);
    alignas(8) char buf[2048];
    long n = 0;
    bool more = true;
    while (more && (n = ::syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0) {
      for (long pos = 0; more && pos < n;) {
        const auto* e = reinterpret_cast<const linux_dirent64*>(buf + pos);
        pos += e->d_reclen;
        if (IsDotOrDotDot(e->d_name)) continue;
        more = entry(DirEntry{e->d_name, KindOf(e->d_type)});
      }
    }
    const int err = errno;
    ::close(fd);
    if (n < 0) return Status::FromErrno("read directory '" + path + "'", err);
    return Status::Ok();
  }

  StatusOr<uint64_t> FreeBytes(const std::string& path) override {
    struct statvfs st {};
    if (::statvfs(path.c_str(), &st) != 0) {
      return Status::FromErrno("statvfs '" + path + "'", errno);
    }
    return static_cast<uint64_t>(st.f_bavail) * st.f_frsize;
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
    return RenameWith(from, to, ReplaceOptions());
  }

  Status RenameWith(const std::string& from, const std::string& to,
                    const ReplaceOptions& options) override {
    int err = RenameMakingParents(from, to, options.make_parents);
    if (err == 0) return Status::Ok();
    if (err != EXDEV) {
      return Status::FromErrno("rename " + from + " to " + to, err);
    }
    // The destination may be a user's file: a full disk midway must leave
    // its old content, not a truncated one (as rename(2) would have).
    if (Status s = CopyAtomically(from, to, options); !s.ok()) return s;
    ::unlink(from.c_str());
    return Status::Ok();
  }

  Status CopyAtomically(const std::string& from, const std::string& to,
                        const ReplaceOptions& options) override {
    AtomicWriteOptions write;
    write.mode = 0666;  // what creating it would give, after the umask
    write.sync = options.sync;
    if (options.keep_mode) {
      struct stat st;
      if (::stat(from.c_str(), &st) != 0) {
        return Status::FromErrno("cannot read '" + from + "'", errno);
      }
      write.mode = st.st_mode & 07777;
    }
    return CopyFileAtomically(from, to, write);
  }

  Status Remove(const std::string& path) override {
    std::error_code ec;
    fs::remove(path, ec);
    if (ec) return Status::IoError("remove " + path + ": " + ec.message());
    return Status::Ok();
  }

  Status RemoveDir(const std::string& path) override {
    if (::rmdir(path.c_str()) == 0 || errno == ENOENT) return Status::Ok();
    return Status::FromErrno("remove directory " + path, errno);
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

  Status MakePrivateDir(const std::string& path) override {
    if (::mkdir(path.c_str(), 0700) == 0) return Status::Ok();
    const int err = errno;
    const std::string what = "create directory '" + path + "'";
    if (err == EEXIST) return Status::FailedPrecondition(what + ": exists");
    if (err == ENOENT) return Status::NotFound(what + ": no parent");
    return Status::FromErrno(what, err);
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

 private:
  // rename(2), creating the parent directories of `to` once when asked and
  // missing; 0 or the errno.
  static int RenameMakingParents(const std::string& from, const std::string& to,
                                 bool make_parents) {
    if (::rename(from.c_str(), to.c_str()) == 0) return 0;
    if (errno != ENOENT || !make_parents) return errno;
    // Either `from` is gone or the parent of `to` is missing.
    const fs::path parent = fs::path(to).parent_path();
    std::error_code ec;
    if (parent.empty() || fs::exists(parent, ec)) return ENOENT;
    fs::create_directories(parent, ec);
    if (ec) return ec.value();
    return ::rename(from.c_str(), to.c_str()) == 0 ? 0 : errno;
  }
};

}  // namespace

FileSystem& RealFileSystem() {
  static FileSystem* real = new PosixFileSystem;
  return *real;
}

}  // namespace gs
