#include "tests/support/mem_file_system.h"

#include <memory>

namespace gs::testing {

namespace {

std::string Parent(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos || slash == 0) return "/";
  return path.substr(0, slash);
}

bool IsUnder(const std::string& path, const std::string& dir) {
  return path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 &&
         path[dir.size()] == '/';
}

}  // namespace

class MemFileSystem::Held : public FileLock {
 public:
  Held(MemFileSystem* fs, std::string path) : fs_(fs), path_(std::move(path)) {}
  ~Held() override { fs_->ReleaseLock(path_); }

 private:
  MemFileSystem* fs_;
  std::string path_;
};

MemFileSystem::MemFileSystem() { dirs_.insert("/"); }

FileInfo MemFileSystem::Stat(const std::string& path) {
  std::lock_guard<std::mutex> lock(mu_);
  FileInfo info;
  auto it = files_.find(path);
  if (it == files_.end()) return info;
  info.exists = true;
  info.size = it->second.bytes.size();
  info.mtime_ns = it->second.mtime_ns;
  info.inode = it->second.inode;
  return info;
}

Status MemFileSystem::Read(const std::string& path,
                           const std::function<void(std::string_view)>& chunk) {
  std::string bytes;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = files_.find(path);
    if (it == files_.end()) return Status::NotFound("open " + path);
    bytes = it->second.bytes;
  }
  chunk(bytes);
  return Status::Ok();
}

Status MemFileSystem::WriteFile(const std::string& path,
                                std::string_view bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!ParentExistsLocked(path) || dirs_.count(path)) {
    return Status::IoError("open " + path + ": no such directory");
  }
  PutLocked(path, std::string(bytes));
  return Status::Ok();
}

Status MemFileSystem::CopyFile(const std::string& from, const std::string& to) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = files_.find(from);
  if (it == files_.end()) return Status::IoError("copy " + from + ": missing");
  if (!ParentExistsLocked(to)) {
    return Status::IoError("copy " + from + " to " + to + ": no directory");
  }
  PutLocked(to, it->second.bytes);
  return Status::Ok();
}

Status MemFileSystem::Rename(const std::string& from, const std::string& to) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = files_.find(from);
  if (it == files_.end() || !ParentExistsLocked(to)) {
    return Status::IoError("rename " + from + " to " + to + ": missing");
  }
  File moved = std::move(it->second);  // keeps its inode, as rename(2)
  files_.erase(it);
  files_[to] = std::move(moved);
  return Status::Ok();
}

Status MemFileSystem::Remove(const std::string& path) {
  std::lock_guard<std::mutex> lock(mu_);
  if (files_.erase(path)) return Status::Ok();
  if (!dirs_.count(path)) return Status::Ok();
  for (const auto& [p, f] : files_) {
    if (IsUnder(p, path)) return Status::IoError("remove " + path + ": full");
  }
  for (const std::string& d : dirs_) {
    if (IsUnder(d, path)) return Status::IoError("remove " + path + ": full");
  }
  dirs_.erase(path);
  private_.erase(path);
  return Status::Ok();
}

Status MemFileSystem::RemoveAll(const std::string& path) {
  std::lock_guard<std::mutex> lock(mu_);
  files_.erase(path);
  std::erase_if(files_, [&](const auto& f) { return IsUnder(f.first, path); });
  std::erase_if(dirs_, [&](const std::string& d) {
    return d != "/" && (d == path || IsUnder(d, path));
  });
  return Status::Ok();
}

Status MemFileSystem::CreateDirs(const std::string& path) {
  std::lock_guard<std::mutex> lock(mu_);
  for (std::string d = path; d != "/" && !d.empty(); d = Parent(d)) {
    if (files_.count(d)) return Status::IoError("create " + path + ": a file");
    dirs_.insert(d);
  }
  return Status::Ok();
}

Status MemFileSystem::RestrictToOwner(const std::string& path) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!dirs_.count(path)) return Status::IoError("chmod " + path + ": missing");
  private_.insert(path);
  return Status::Ok();
}

StatusOr<std::unique_ptr<FileLock>> MemFileSystem::Lock(
    const std::string& path) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!ParentExistsLocked(path)) {
    return Status::IoError("cannot lock " + path + ": no directory");
  }
  if (!locked_.insert(path).second) {
    return Status::Unavailable(path + " is locked by another process");
  }
  if (!files_.count(path)) PutLocked(path, "");
  return std::unique_ptr<FileLock>(std::make_unique<Held>(this, path));
}

void MemFileSystem::Put(const std::string& path, std::string_view bytes) {
  (void)CreateDirs(Parent(path));
  std::lock_guard<std::mutex> lock(mu_);
  PutLocked(path, std::string(bytes));
}

std::optional<std::string> MemFileSystem::Contents(const std::string& path) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = files_.find(path);
  if (it == files_.end()) return std::nullopt;
  return it->second.bytes;
}

std::vector<std::string> MemFileSystem::FilesUnder(const std::string& dir) {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> out;
  for (const auto& [p, f] : files_) {
    if (IsUnder(p, dir)) out.push_back(p);
  }
  return out;
}

bool MemFileSystem::IsDir(const std::string& path) {
  std::lock_guard<std::mutex> lock(mu_);
  return dirs_.count(path) > 0;
}

bool MemFileSystem::IsPrivate(const std::string& path) {
  std::lock_guard<std::mutex> lock(mu_);
  return private_.count(path) > 0;
}

void MemFileSystem::PutLocked(const std::string& path, std::string bytes) {
  File& f = files_[path];
  f.bytes = std::move(bytes);
  f.mtime_ns = ++tick_;
  if (f.inode == 0) f.inode = next_inode_++;
}

bool MemFileSystem::ParentExistsLocked(const std::string& path) const {
  return dirs_.count(Parent(path)) > 0;
}

void MemFileSystem::ReleaseLock(const std::string& path) {
  std::lock_guard<std::mutex> lock(mu_);
  locked_.erase(path);
}

}  // namespace gs::testing
