#include "runtime/history/result_store.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <set>

#include "runtime/base/sha256.h"
#include "runtime/history/journal.h"

namespace gs {

namespace fs = std::filesystem;

namespace {

int64_t MtimeNs(const struct stat& st) {
  return static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 +
         st.st_mtim.tv_nsec;
}

FileStamp StampFromStat(const struct stat& st) {
  FileStamp s;
  s.exists = true;
  s.size = static_cast<int64_t>(st.st_size);
  s.mtime_ns = MtimeNs(st);
  s.ctime_ns =
      static_cast<int64_t>(st.st_ctim.tv_sec) * 1000000000 + st.st_ctim.tv_nsec;
  s.inode = static_cast<uint64_t>(st.st_ino);
  return s;
}

Status Errno(const std::string& what, const std::string& path) {
  return Status::IoError(what + " " + path + ": " + std::strerror(errno));
}

// "s:<32 hex>:<size>" -> "<32 hex>-<size>"; "" when not a ContentId.
std::string FileNameOf(std::string_view content) {
  if (!IsContentId(content)) return "";
  return std::string(content.substr(2, 32)) + "-" +
         std::string(content.substr(35));
}

Status CopyInto(const std::string& from, const std::string& to) {
  std::error_code ec;
  fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec);
  if (ec) {
    return Status::IoError("cannot copy " + from + " to " + to + ": " +
                           ec.message());
  }
  return Status::Ok();
}

// A hard link of `from` at `to` (which must not exist), else a copy.
Status LinkOrCopy(const std::string& from, const std::string& to) {
  if (::link(from.c_str(), to.c_str()) == 0) return Status::Ok();
  if (errno != EXDEV && errno != EPERM && errno != EMLINK)
    return Errno("cannot link " + from + " to", to);
  return CopyInto(from, to);
}

}  // namespace

FileStamp StampOf(const std::string& path, bool any_kind) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || (!any_kind && !S_ISREG(st.st_mode)))
    return FileStamp();
  return StampFromStat(st);
}

bool StampStillHolds(const FileStamp& then, double learnt,
                     const FileStamp& now) {
  if (!now.exists || !then.exists || now.size != then.size ||
      now.mtime_ns != then.mtime_ns || now.ctime_ns != then.ctime_ns ||
      now.inode != then.inode)
    return false;
  const double last_change =
      static_cast<double>(std::max(then.mtime_ns, then.ctime_ns)) / 1e9;
  return learnt - last_change >= 1.0;
}

bool CachedHashHolds(const FileHash& cached, const FileStamp& now) {
  return IsContentId(cached.content) &&
         StampStillHolds(cached.stamp, cached.hashed, now);
}

StatusOr<StoredFile> ResultStore::Identify(const std::string& path,
                                           ReadFacts* facts) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return Status::NotFound("no file " + path);
    return Errno("cannot read", path);
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return Status::InvalidArgument(path + " is not a file");
  }
  Sha256 sha;
  ContentHash journal_hash;
  // Per thread, not per call: most outputs are small, and clearing a big
  // buffer for each would cost more than hashing them.
  static constexpr size_t kChunk = 1 << 16;
  thread_local std::unique_ptr<char[]> buf(new char[kChunk]);
  while (true) {
    ssize_t n = ::read(fd, buf.get(), kChunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      Status s = Errno("cannot read", path);
      ::close(fd);
      return s;
    }
    if (n == 0) break;
    const std::string_view chunk(buf.get(), static_cast<size_t>(n));
    sha.Update(chunk);
    if (facts) journal_hash.Update(chunk);
    // A short read of a regular file that reached the size fstat gave is
    // its end: the read that would return 0 is saved (most inputs are
    // smaller than a chunk). A file that grows meanwhile gets another
    // stamp, so the hash is not kept for it.
    if (static_cast<size_t>(n) < kChunk &&
        sha.size() >= static_cast<uint64_t>(st.st_size))
      break;
  }
  ::close(fd);
  StoredFile f;
  f.size = static_cast<int64_t>(sha.size());
  f.content = ContentId(sha.Hex(), sha.size());
  f.mtime_ns = MtimeNs(st);
  if (facts) {
    facts->stamp = StampFromStat(st);
    facts->journal_id =
        ContentVersionId(journal_hash.Digest(), journal_hash.size());
  }
  return f;
}

std::string ResultStore::PathOf(std::string_view content) const {
  std::string name = FileNameOf(content);
  if (name.empty()) return "";
  return dir_ + "/" + name.substr(0, 2) + "/" + name;
}

StatusOr<StoredFile> ResultStore::Put(const std::string& path) {
  StatusOr<StoredFile> id = Identify(path);
  if (!id.ok()) return id.status();
  StoredFile f = std::move(id).value();
  const std::string blob = PathOf(f.content);
  struct stat st {};
  if (::stat(blob.c_str(), &st) == 0 && st.st_size == f.size) {
    f.mtime_ns = MtimeNs(st);
    return f;
  }
  const std::string sub = blob.substr(0, blob.rfind('/'));
  if (::mkdir(dir_.c_str(), 0700) != 0 && errno != EEXIST)
    return Errno("cannot make the store", dir_);
  if (::mkdir(sub.c_str(), 0700) != 0 && errno != EEXIST)
    return Errno("cannot make", sub);
  static std::atomic<uint64_t> counter{0};
  const std::string tmp = blob + ".tmp." + std::to_string(::getpid()) + "." +
                          std::to_string(++counter);
  if (Status s = LinkOrCopy(path, tmp); !s.ok()) return s;
  if (::rename(tmp.c_str(), blob.c_str()) != 0) {
    Status s = Errno("cannot store", blob);
    ::unlink(tmp.c_str());
    return s;
  }
  if (::stat(blob.c_str(), &st) != 0) return Errno("cannot stat", blob);
  f.mtime_ns = MtimeNs(st);
  return f;
}

bool ResultStore::Holds(const ReuseOutput& out) const {
  const std::string blob = PathOf(out.content);
  struct stat st {};
  if (blob.empty() || ::stat(blob.c_str(), &st) != 0) return false;
  return S_ISREG(st.st_mode) && st.st_size == out.size &&
         MtimeNs(st) == out.mtime_ns;
}

Status ResultStore::Materialize(std::string_view content,
                                const std::string& dest) const {
  const std::string blob = PathOf(content);
  if (blob.empty())
    return Status::InvalidArgument("no content id: " + std::string(content));
  if (::unlink(dest.c_str()) != 0 && errno != ENOENT)
    return Errno("cannot replace", dest);
  return LinkOrCopy(blob, dest);
}

std::vector<StoredFile> ResultStore::List() const {
  std::vector<StoredFile> files;
  std::error_code ec;
  for (const auto& sub : fs::directory_iterator(dir_, ec)) {
    if (!sub.is_directory(ec)) continue;
    for (const auto& entry : fs::directory_iterator(sub.path(), ec)) {
      const std::string name = entry.path().filename().string();
      if (name.size() < 34 || name[32] != '-') continue;  // tmp files too
      std::string content = "s:" + name.substr(0, 32) + ":" + name.substr(33);
      if (!IsContentId(content)) continue;
      struct stat st {};
      if (::stat(entry.path().c_str(), &st) != 0) continue;
      files.push_back({content, static_cast<int64_t>(st.st_size), MtimeNs(st)});
    }
  }
  return files;
}

Status ResultStore::Remove(std::string_view content) {
  const std::string blob = PathOf(content);
  if (blob.empty() || ::unlink(blob.c_str()) == 0 || errno == ENOENT)
    return Status::Ok();
  return Errno("cannot remove", blob);
}

Status ResultStore::Clear() {
  std::error_code ec;
  fs::remove_all(dir_, ec);
  if (ec) return Status::IoError("cannot remove " + dir_ + ": " + ec.message());
  return Status::Ok();
}

StoreCollection PlanStoreCollection(const std::vector<ReuseEntry>& entries,
                                    const std::vector<StoredFile>& files,
                                    uint64_t limit) {
  StoreCollection plan;
  std::map<std::string, int64_t> size_of;
  for (const StoredFile& f : files) {
    size_of[f.content] = f.size;
    plan.bytes_before += static_cast<uint64_t>(f.size);
  }
  // The most recent entry naming each content (index in `entries`).
  std::map<std::string, size_t> last_user;
  for (size_t i = 0; i < entries.size(); ++i) {
    for (const ReuseOutput& o : entries[i].outputs) last_user[o.content] = i;
  }
  uint64_t total = 0;
  for (const StoredFile& f : files) {
    if (last_user.count(f.content)) {
      total += static_cast<uint64_t>(f.size);
    } else {
      plan.remove_contents.push_back(f.content);
    }
  }
  std::set<std::string> removed;
  for (size_t i = 0; i < entries.size(); ++i) {
    const ReuseEntry& e = entries[i];
    bool stale = false;
    for (const ReuseOutput& o : e.outputs) stale |= !size_of.count(o.content);
    if (!stale && total <= limit) continue;
    plan.drop_keys.push_back(e.key);
    for (const ReuseOutput& o : e.outputs) {
      if (last_user[o.content] != i || !size_of.count(o.content) ||
          !removed.insert(o.content).second)
        continue;
      // No more recent entry needs it.
      plan.remove_contents.push_back(o.content);
      total -= static_cast<uint64_t>(size_of[o.content]);
    }
  }
  plan.bytes_after = total;
  return plan;
}

}  // namespace gs
