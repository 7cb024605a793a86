#include "tests/support/mem_file_system.h"

#include <memory>
#include <utility>

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

StatusOr<FileInfo> MemFileSystem::Examine(const std::string& path) {
  std::lock_guard<std::mutex> lock(mu_);
  FileInfo info;
  info.exists = true;
  if (dirs_.count(path)) {
    info.directory = true;
    return info;
  }
  auto it = files_.find(path);
  if (it == files_.end()) {
    return Status::NotFound("'" + path + "' does not exist");
  }
  info.size = it->second.bytes.size();
  info.mtime_ns = it->second.mtime_ns;
  info.inode = it->second.inode;
  return info;
}

Status MemFileSystem::SetModified(const std::string& path, int64_t mtime_ns) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = files_.find(path);
  if (it == files_.end()) return Status::IoError("touch " + path + ": missing");
  it->second.mtime_ns = mtime_ns;
  return Status::Ok();
}

Status MemFileSystem::ListDir(
    const std::string& path,
    const std::function<bool(const DirEntry&)>& entry) {
  std::vector<std::pair<std::string, DirEntry::Kind>> found;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!dirs_.count(path)) return Status::IoError("list " + path + ": none");
    for (const auto& [p, f] : files_) {
      if (Parent(p) == path) {
        found.emplace_back(p.substr(p.rfind('/') + 1),
                           DirEntry::Kind::kRegular);
      }
    }
    for (const std::string& d : dirs_) {
      if (d != "/" && Parent(d) == path) {
        found.emplace_back(d.substr(d.rfind('/') + 1),
                           DirEntry::Kind::kDirectory);
      }
    }
  }
  for (const auto& [name, kind] : found) {
    if (!entry(DirEntry{name, kind})) break;
  }
  return Status::Ok();
}

StatusOr<uint64_t> MemFileSystem::FreeBytes(const std::string& path) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!dirs_.count(path) && !files_.count(path)) {
    return Status::IoError("statvfs " + path + ": missing");
  }
  return free_bytes_;
}

void MemFileSystem::set_free_bytes(uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  free_bytes_ = bytes;
}

Status MemFileSystem::Rename(const std::string& from, const std::string& to) {
  return RenameWith(from, to, ReplaceOptions());
}

Status MemFileSystem::RenameWith(const std::string& from, const std::string& to,
                                 const ReplaceOptions& options) {
  std::lock_guard<std::mutex> lock(mu_);
  if (options.make_parents && !ParentExistsLocked(to) &&
      (files_.count(from) || dirs_.count(from))) {
    CreateDirsLocked(Parent(to));
  }
  if (dirs_.count(from)) return RenameDirLocked(from, to);
  auto it = files_.find(from);
  if (it == files_.end() || !ParentExistsLocked(to) || dirs_.count(to)) {
    return Status::IoError("rename " + from + " to " + to + ": missing");
  }
  File moved = std::move(it->second);  // keeps its inode, as rename(2)
  files_.erase(it);
  files_[to] = std::move(moved);
  return Status::Ok();
}

Status MemFileSystem::RenameDirLocked(const std::string& from,
                                      const std::string& to) {
  if (!ParentExistsLocked(to) || files_.count(to) || IsUnder(to, from) ||
      (dirs_.count(to) && HasChildrenLocked(to))) {
    return Status::IoError("rename " + from + " to " + to + ": refused");
  }
  auto moved = [&](const std::string& p) { return to + p.substr(from.size()); };
  std::map<std::string, File> files;
  for (auto& [p, f] : files_) {
    files[IsUnder(p, from) ? moved(p) : p] = std::move(f);
  }
  files_ = std::move(files);
  std::set<std::string> dirs, priv;
  for (const std::string& d : dirs_) {
    dirs.insert(d == from || IsUnder(d, from) ? moved(d) : d);
  }
  for (const std::string& d : private_) {
    priv.insert(d == from || IsUnder(d, from) ? moved(d) : d);
  }
  dirs_ = std::move(dirs);
  private_ = std::move(priv);
  return Status::Ok();
}

Status MemFileSystem::CopyAtomically(const std::string& from,
                                     const std::string& to,
                                     const ReplaceOptions&) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = files_.find(from);
  if (it == files_.end()) return Status::IoError("copy " + from + ": missing");
  if (!ParentExistsLocked(to) || dirs_.count(to)) {
    return Status::IoError("copy " + from + " to " + to + ": no directory");
  }
  PutLocked(to, it->second.bytes);
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

Status MemFileSystem::RemoveDir(const std::string& path) {
  std::lock_guard<std::mutex> lock(mu_);
  if (files_.count(path)) return Status::IoError("rmdir " + path + ": a file");
  if (!dirs_.count(path)) return Status::Ok();
  if (HasChildrenLocked(path)) {
    return Status::IoError("rmdir " + path + ": not empty");
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
  }
  CreateDirsLocked(path);
  return Status::Ok();
}

void MemFileSystem::CreateDirsLocked(const std::string& path) {
  for (std::string d = path; d != "/" && !d.empty(); d = Parent(d)) {
    dirs_.insert(d);
  }
}

Status MemFileSystem::MakePrivateDir(const std::string& path) {
  std::lock_guard<std::mutex> lock(mu_);
  const std::string what = "create directory '" + path + "'";
  if (files_.count(path) || dirs_.count(path)) {
    return Status::FailedPrecondition(what + ": exists");
  }
  if (!ParentExistsLocked(path)) return Status::NotFound(what + ": no parent");
  dirs_.insert(path);
  private_.insert(path);
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

bool MemFileSystem::HasChildrenLocked(const std::string& dir) const {
  for (const auto& [p, f] : files_) {
    if (IsUnder(p, dir)) return true;
  }
  for (const std::string& d : dirs_) {
    if (IsUnder(d, dir)) return true;
  }
  return false;
}

void MemFileSystem::ReleaseLock(const std::string& path) {
  std::lock_guard<std::mutex> lock(mu_);
  locked_.erase(path);
}

}  // namespace gs::testing
