#include "runtime/graph/file_table.h"

#include <algorithm>
#include <filesystem>

namespace gs {

namespace {

// Whether lexically_normal leaves `name` as it is and no trailing '/' is to
// go: no empty, "." or ".." segment. The usual spelling of a file is.
bool IsPlain(std::string_view name) {
  if (name.empty() || name.back() == '/') return false;
  size_t start = name[0] == '/' ? 1 : 0;
  while (start <= name.size()) {
    size_t end = std::min(name.find('/', start), name.size());
    std::string_view segment = name.substr(start, end - start);
    if (segment.empty() || segment == "." || segment == "..") return false;
    start = end + 1;
  }
  return true;
}

}  // namespace

FileTable::FileTable(std::string cwd)
    : cwd_(std::move(cwd)), normal_cwd_(Normalize(cwd_, ".")) {}

std::string FileTable::NormalizeName(std::string_view name) const {
  // std::filesystem allocates a path per segment: a plain name against an
  // absolute directory needs only a join (the same result; the tests
  // compare the two).
  if (!IsPlain(name) || normal_cwd_.empty() || normal_cwd_[0] != '/')
    return Normalize(cwd_, name);
  if (name[0] == '/') return std::string(name);
  std::string path;
  path.reserve(normal_cwd_.size() + 1 + name.size());
  path += normal_cwd_;
  if (path.back() != '/') path += '/';
  path += name;
  return path;
}

std::string FileTable::Normalize(std::string_view cwd, std::string_view name) {
  std::filesystem::path p(name);
  if (p.is_relative()) p = std::filesystem::path(cwd) / p;
  std::string s = p.lexically_normal().string();
  // "dir/" and "dir" name the same thing.
  if (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

FileId FileTable::Intern(std::string_view name) {
  const uint64_t hash = SpellingIndex::Hash(name);
  if (FileId id = by_name_.Find(name, hash); id != SpellingIndex::kNotFound)
    return id;
  std::string path = NormalizeName(name);
  const uint64_t path_hash = SpellingIndex::Hash(path);
  FileId id = by_path_.Find(path, path_hash);
  if (id == SpellingIndex::kNotFound) {
    id = static_cast<FileId>(files_.size());
    by_path_.Insert(path, path_hash, id);
    files_.push_back(File{std::move(path)});
  }
  by_name_.Insert(name, hash, id);
  return id;
}

size_t FileTable::MemoryUsage() const {
  size_t bytes = files_.capacity() * sizeof(File);
  for (const File& f : files_) bytes += f.path.capacity();
  return bytes + by_name_.MemoryUsage() + by_path_.MemoryUsage();
}

}  // namespace gs
