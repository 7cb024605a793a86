#include "adapters/local/sandbox_pool.h"

#include <string_view>
#include <utility>
#include <vector>

#include "adapters/local/job_files.h"

namespace gs {

namespace {

bool IsPoolFile(std::string_view name) {
  return name == SandboxPool::kStdout || name == SandboxPool::kStderr ||
         name == SandboxPool::kResult;
}

}  // namespace

SandboxPool::SandboxPool(FileSystem& fs, std::string jobs_dir, int max_idle)
    : fs_(fs), jobs_dir_(std::move(jobs_dir)), max_idle_(max_idle) {}

void SandboxPool::Clear() {
  for (const std::string& dir : idle_) Remove(dir);
  idle_.clear();
}

StatusOr<std::string> SandboxPool::Acquire(const std::string& fresh,
                                           bool mark_stale) {
  if (!idle_.empty()) {
    std::string dir = std::move(idle_.back());
    idle_.pop_back();
    if (mark_stale) MarkStale(fs_, dir + "/" + kResult);
    return dir;
  }
  // A sandbox of an earlier run with the same job id goes (MakeFreshDir).
  if (Status s = MakeFreshDir(fs_, fresh); !s.ok()) return s;
  return fresh;
}

void SandboxPool::Release(const std::string& sandbox, bool known_clean) {
  if (static_cast<int>(idle_.size()) >= max_idle_ ||
      !(known_clean || OnlyPoolFiles(sandbox))) {
    return Remove(sandbox);
  }
  idle_.push_back(sandbox);
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
