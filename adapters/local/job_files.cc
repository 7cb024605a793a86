#include "adapters/local/job_files.h"

#include <string_view>

namespace gs {

namespace {

// See MarkStale().
bool IsStale(const FileInfo& info) { return info.mtime_ns == 0; }

std::string Parent(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

Status TooLarge(const std::string& path, uint64_t max_bytes) {
  return Status::InvalidArgument("'" + path + "' is larger than " +
                                 std::to_string(max_bytes) + " bytes");
}

}  // namespace

ReplaceOptions JobFileReplace() {
  ReplaceOptions options;
  options.keep_mode = true;
  options.sync = false;
  options.make_parents = true;
  return options;
}

void MarkStale(FileSystem& fs, const std::string& path) {
  (void)fs.SetModified(path, 0);
}

void RemoveIfStale(FileSystem& fs, const std::string& path) {
  auto info = fs.Examine(path);
  if (info.ok() && IsStale(*info)) (void)fs.Remove(path);
}

StatusOr<std::string> ReadResultFile(FileSystem& fs, const std::string& path,
                                     uint64_t max_bytes) {
  // Examine first: most results are empty (void operations), and then one
  // system call is all it takes.
  auto info = fs.Examine(path);
  if (!info.ok() && info.status().code() == Status::Code::kNotFound) {
    return Status::NotFound("'" + path + "' was not written");
  }
  if (!info.ok()) return info.status();
  if (IsStale(*info)) {
    return Status::NotFound("'" + path + "' was not written");
  }
  if (info->size > max_bytes) return TooLarge(path, max_bytes);
  std::string text;
  if (info->size == 0) return text;
  Status s = fs.Read(path, [&](std::string_view chunk) {
    if (text.size() <= max_bytes) text.append(chunk);
  });
  if (!s.ok()) return s;
  if (text.size() > max_bytes) return TooLarge(path, max_bytes);
  return text;
}

Status MakeFreshDir(FileSystem& fs, const std::string& dir) {
  Status s = fs.MakePrivateDir(dir);
  if (s.ok()) return s;
  if (s.code() == Status::Code::kFailedPrecondition) {
    s = fs.RemoveAll(dir);
  } else if (s.code() == Status::Code::kNotFound) {
    s = fs.CreateDirs(Parent(dir));
  } else {
    return s;
  }
  if (!s.ok()) return s;
  return fs.MakePrivateDir(dir);
}

void RemoveDir(FileSystem& fs, const std::string& dir,
               std::initializer_list<const char*> expected) {
  std::string path = dir + "/";
  const size_t base = path.size();
  for (const char* name : expected) {
    path.resize(base);
    path += name;
    (void)fs.Remove(path);
  }
  if (fs.RemoveDir(dir).ok()) return;
  (void)fs.RemoveAll(dir);  // best effort: a leftover is only disk space
}

std::string FullDiskNote(FileSystem& fs, const std::string& dir) {
  // Less than this is too little for any worker's output or log.
  constexpr uint64_t kAlmostFull = 64 << 10;
  auto free = fs.FreeBytes(dir);
  if (!free.ok() || *free >= kAlmostFull) return "";
  return "; the file system of " + dir +
         " is full (no space left on device): free space there or give "
         "the host another workdir";
}

}  // namespace gs
