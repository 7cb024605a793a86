#include "runtime/graph/file_table.h"

#include <filesystem>

namespace gs {

FileTable::FileTable(std::string cwd) : cwd_(std::move(cwd)) {}

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
  std::string path = Normalize(cwd_, name);
  FileId id;
  if (auto it = by_path_.find(path); it != by_path_.end()) {
    id = it->second;
  } else {
    id = static_cast<FileId>(files_.size());
    files_.push_back(File{path});
    by_path_.emplace(std::move(path), id);
  }
  by_name_.Insert(name, hash, id);
  return id;
}

size_t FileTable::MemoryUsage() const {
  size_t bytes = files_.capacity() * sizeof(File);
  for (const File& f : files_) bytes += f.path.capacity();
  // Node, key string and bucket per entry, as libstdc++ lays them out.
  auto map_bytes = [](const auto& m) {
    size_t b = m.bucket_count() * sizeof(void*);
    for (const auto& [k, v] : m) b += 64 + (k.size() > 15 ? k.capacity() : 0);
    return b;
  };
  return bytes + by_name_.MemoryUsage() + map_bytes(by_path_);
}

}  // namespace gs
