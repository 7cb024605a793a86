#include "adapters/local/sandbox_pool.h"

#include <dirent.h>  // DT_REG
#include <fcntl.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>

#include "adapters/local/job_files.h"

namespace gs {

namespace {

constexpr const char kIdlePrefix[] = ".idle.";

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

// True when `dir` holds nothing but the files a pooled sandbox may keep.
// Raw getdents64: opendir() would add an fstat and a 32 KiB buffer per job.
bool OnlyPoolFiles(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return false;
  alignas(8) char buf[2048];
  bool only = true;
  long n = 0;
  while (only && (n = ::syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0) {
    for (long pos = 0; pos < n;) {
      const auto* e = reinterpret_cast<const linux_dirent64*>(buf + pos);
      pos += e->d_reclen;
      if (IsDotOrDotDot(e->d_name)) continue;
      if ((e->d_type != DT_REG && e->d_type != DT_UNKNOWN) ||
          (std::strcmp(e->d_name, SandboxPool::kStdout) != 0 &&
           std::strcmp(e->d_name, SandboxPool::kStderr) != 0 &&
           std::strcmp(e->d_name, SandboxPool::kResult) != 0)) {
        only = false;
        break;
      }
    }
  }
  ::close(fd);
  return only && n == 0;
}

}  // namespace

SandboxPool::SandboxPool(std::string jobs_dir, int max_idle)
    : jobs_dir_(std::move(jobs_dir)),
      // The pid once: getpid is a system call per job otherwise.
      idle_prefix_(jobs_dir_ + "/" + kIdlePrefix + std::to_string(::getpid()) +
                   "."),
      max_idle_(max_idle) {}

void SandboxPool::Clear() {
  for (const std::string& dir : idle_) Remove(dir);
  idle_.clear();
}

void SandboxPool::RemoveStale() {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(jobs_dir_, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(kIdlePrefix, 0) != 0) continue;
    bool ours = false;
    for (const std::string& dir : idle_) ours |= dir == entry.path().string();
    if (!ours) std::filesystem::remove_all(entry.path(), ec);
  }
}

Status SandboxPool::Acquire(const std::string& sandbox) {
  while (!idle_.empty()) {
    std::string dir = std::move(idle_.back());
    idle_.pop_back();
    int err = ::rename(dir.c_str(), sandbox.c_str()) == 0 ? 0 : errno;
    if (err == EEXIST || err == ENOTEMPTY) {
      // A sandbox of an earlier run with the same job id: it goes.
      Remove(sandbox);
      err = ::rename(dir.c_str(), sandbox.c_str()) == 0 ? 0 : errno;
    }
    if (err == 0) {
      MarkStale(sandbox + "/" + kResult);
      return Status::Ok();
    }
    Remove(dir);
  }
  return MakeFreshDir(sandbox);
}

void SandboxPool::Release(const std::string& sandbox) {
  if (static_cast<int>(idle_.size()) >= max_idle_ || !OnlyPoolFiles(sandbox)) {
    return Remove(sandbox);
  }
  std::string dir = idle_prefix_ + std::to_string(next_name_++);
  if (::rename(sandbox.c_str(), dir.c_str()) != 0) return Remove(sandbox);
  idle_.push_back(std::move(dir));
}

void SandboxPool::Remove(const std::string& sandbox) {
  RemoveDir(sandbox, {kStdout, kStderr, kResult});
}

}  // namespace gs
