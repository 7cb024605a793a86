#include "adapters/local/job_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <system_error>

#include "runtime/base/file_io.h"

namespace gs {

namespace {

namespace fs = std::filesystem;

Status FromErrorCode(const std::string& what, const std::error_code& ec) {
  return Status::FromErrno(what, ec.value());
}

// rename(2), creating the parent directory of `to` once if it is missing.
int RenameMakingParent(const std::string& from, const std::string& to) {
  if (::rename(from.c_str(), to.c_str()) == 0) return 0;
  if (errno != ENOENT) return errno;
  // Either `from` is gone or the parent of `to` is missing.
  const fs::path parent = fs::path(to).parent_path();
  std::error_code ec;
  if (parent.empty() || fs::exists(parent, ec)) return ENOENT;
  fs::create_directories(parent, ec);
  if (ec) return ec.value();
  return ::rename(from.c_str(), to.c_str()) == 0 ? 0 : errno;
}

// See MarkStale().
bool IsStale(const struct stat& st) {
  return st.st_mtim.tv_sec == 0 && st.st_mtim.tv_nsec == 0;
}

}  // namespace

StatusOr<uint64_t> FileSize(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT)
      return Status::NotFound("'" + path + "' does not exist");
    return Status::FromErrno("stat '" + path + "'", errno);
  }
  return static_cast<uint64_t>(st.st_size);
}

Status CopyFile(const std::string& from, const std::string& to) {
  std::error_code ec;
  fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec);
  if (ec) return FromErrorCode("copy '" + from + "' to '" + to + "'", ec);
  return Status::Ok();
}

Status MoveFile(const std::string& from, const std::string& to) {
  int err = RenameMakingParent(from, to);
  if (err == 0) return Status::Ok();
  if (err != EXDEV) {
    return Status::FromErrno("move '" + from + "' to '" + to + "'", err);
  }
  // Another file system: a copy that readers see whole or not at all.
  if (Status s = CopyFileKeepingMode(from, to); !s.ok()) return s;
  ::unlink(from.c_str());
  return Status::Ok();
}

Status CopyFileKeepingMode(const std::string& from, const std::string& to) {
  struct stat st;
  if (::stat(from.c_str(), &st) != 0) {
    return Status::FromErrno("cannot read '" + from + "'", errno);
  }
  // No fsync: job files are rebuilt from the run's history when the
  // machine crashes.
  return CopyFileAtomically(from, to,
                            {.mode = st.st_mode & 07777, .sync = false});
}

void MarkStale(const std::string& path) {
  const timespec times[2] = {{0, UTIME_OMIT}, {0, 0}};
  ::utimensat(AT_FDCWD, path.c_str(), times, 0);
}

void RemoveIfStale(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && IsStale(st)) ::unlink(path.c_str());
}

StatusOr<std::string> ReadResultFile(const std::string& path,
                                     uint64_t max_bytes) {
  // stat first: most results are empty (void operations), and then one
  // syscall is all it takes.
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) {
      return Status::NotFound("'" + path + "' was not written");
    }
    return Status::FromErrno("stat '" + path + "'", errno);
  }
  if (IsStale(st)) {
    return Status::NotFound("'" + path + "' was not written");
  }
  if (static_cast<uint64_t>(st.st_size) > max_bytes) {
    return Status::InvalidArgument("'" + path + "' is larger than " +
                                   std::to_string(max_bytes) + " bytes");
  }
  std::string text;
  if (st.st_size == 0) return text;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::FromErrno("open '" + path + "'", errno);
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) != 0) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      ::close(fd);
      return Status::FromErrno("read '" + path + "'", err);
    }
    text.append(buf, static_cast<size_t>(n));
    if (text.size() > max_bytes) break;
  }
  ::close(fd);
  if (text.size() > max_bytes) {
    return Status::InvalidArgument("'" + path + "' is larger than " +
                                   std::to_string(max_bytes) + " bytes");
  }
  return text;
}

Status MakeFreshDir(const std::string& dir) {
  if (::mkdir(dir.c_str(), 0700) == 0) return Status::Ok();
  std::error_code ec;
  if (errno == EEXIST) {
    fs::remove_all(dir, ec);
  } else if (errno == ENOENT) {
    fs::create_directories(fs::path(dir).parent_path(), ec);
  } else {
    return Status::FromErrno("create directory '" + dir + "'", errno);
  }
  if (ec) return FromErrorCode("prepare directory '" + dir + "'", ec);
  if (::mkdir(dir.c_str(), 0700) != 0) {
    return Status::FromErrno("create directory '" + dir + "'", errno);
  }
  return Status::Ok();
}

void RemoveDir(const std::string& dir,
               std::initializer_list<const char*> expected) {
  std::string path = dir + "/";
  const size_t base = path.size();
  for (const char* name : expected) {
    path.resize(base);
    path += name;
    ::unlink(path.c_str());
  }
  if (::rmdir(dir.c_str()) == 0 || errno == ENOENT) return;
  std::error_code ec;
  fs::remove_all(dir, ec);  // best effort: a leftover is only disk space
}

std::string FullDiskNote(const std::string& dir) {
  // Less than this is too little for any worker's output or log.
  constexpr uint64_t kAlmostFull = 64 << 10;
  struct statvfs st {};
  if (::statvfs(dir.c_str(), &st) != 0) return "";
  if (static_cast<uint64_t>(st.f_bavail) * st.f_frsize >= kAlmostFull) {
    return "";
  }
  return "; the file system of " + dir +
         " is full (no space left on device): free space there or give "
         "the host another workdir";
}

}  // namespace gs
