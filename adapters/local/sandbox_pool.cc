#include "adapters/local/sandbox_pool.h"

#include <unistd.h>  // getpid

#include <string_view>
#include <utility>
#include <vector>

#include "adapters/local/job_files.h"

namespace gs {

namespace {

constexpr const char kIdlePrefix[] = ".idle.";

bool IsPoolFile(std::string_view name) {
  return name == SandboxPool::kStdout || name == SandboxPool::kStderr ||
         name == SandboxPool::kResult;
}

}  // namespace

SandboxPool::SandboxPool(FileSystem& fs, std::string jobs_dir, int max_idle)
    : fs_(fs),
      jobs_dir_(std::move(jobs_dir)),
      // The pid once: getpid is a system call per job otherwise.
      idle_prefix_(jobs_dir_ + "/" + kIdlePrefix + std::to_string(::getpid()) +
                   "."),
      max_idle_(max_idle) {}

void SandboxPool::Clear() {
  for (const std::string& dir : idle_) Remove(dir);
  idle_.clear();
}

void SandboxPool::RemoveStale() {
  std::vector<std::string> stale;
  (void)fs_.ListDir(jobs_dir_, [&](const DirEntry& e) {
    if (e.name.rfind(kIdlePrefix, 0) == 0) {
      stale.push_back(jobs_dir_ + "/" + std::string(e.name));
    }
    return true;
  });
  for (const std::string& path : stale) {
    bool ours = false;
    for (const std::string& dir : idle_) ours |= dir == path;
    if (!ours) (void)fs_.RemoveAll(path);
  }
}

Status SandboxPool::Acquire(const std::string& sandbox) {
  while (!idle_.empty()) {
    std::string dir = std::move(idle_.back());
    idle_.pop_back();
    Status s = fs_.Rename(dir, sandbox);
    if (!s.ok()) {
      // A sandbox of an earlier run with the same job id: it goes.
      Remove(sandbox);
      s = fs_.Rename(dir, sandbox);
    }
    if (s.ok()) {
      MarkStale(fs_, sandbox + "/" + kResult);
      return Status::Ok();
    }
    Remove(dir);
  }
  return MakeFreshDir(fs_, sandbox);
}

void SandboxPool::Release(const std::string& sandbox) {
  if (static_cast<int>(idle_.size()) >= max_idle_ || !OnlyPoolFiles(sandbox)) {
    return Remove(sandbox);
  }
  std::string dir = idle_prefix_ + std::to_string(next_name_++);
  if (!fs_.Rename(sandbox, dir).ok()) return Remove(sandbox);
  idle_.push_back(std::move(dir));
}

void SandboxPool::Remove(const std::string& sandbox) {
  RemoveDir(fs_, sandbox, {kStdout, kStderr, kResult});
}

bool SandboxPool::OnlyPoolFiles(const std::string& dir) {
  bool only = true;
  Status listed = fs_.ListDir(dir, [&](const DirEntry& e) {
    only = (e.kind == DirEntry::Kind::kRegular ||
            e.kind == DirEntry::Kind::kUnknown) &&
           IsPoolFile(e.name);
    return only;
  });
  return listed.ok() && only;
}

}  // namespace gs
