// Interns the file names a master program uses. Two spellings of one path
// ("a.txt", "./a.txt", "/abs/a.txt") get one FileId.
#ifndef GSRT_RUNTIME_GRAPH_FILE_TABLE_H_
#define GSRT_RUNTIME_GRAPH_FILE_TABLE_H_

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/graph/spelling_index.h"

namespace gs {

using FileId = uint32_t;

class FileTable {
 public:
  // `cwd` is the absolute directory relative names are resolved against.
  explicit FileTable(std::string cwd);

  // The id of `name`, created on first use.
  FileId Intern(std::string_view name);

  // The absolute, lexically normalised path of `id`.
  const std::string& path(FileId id) const { return files_[id].path; }
  size_t size() const { return files_.size(); }

  // The newest version of the file, or kNone before its first use.
  static constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
  uint32_t latest(FileId id) const { return files_[id].latest; }
  void set_latest(FileId id, uint32_t v) { files_[id].latest = v; }
  // Number of versions created so far (the next version's number).
  uint32_t& version_count(FileId id) { return files_[id].versions; }

  // Absolute, normalised form of `name` against `cwd`.
  static std::string Normalize(std::string_view cwd, std::string_view name);

  size_t MemoryUsage() const;

 private:
  struct File {
    std::string path;
    uint32_t latest = kNone;
    uint32_t versions = 0;
  };
  // Normalize(cwd_, name), without std::filesystem for a plain name.
  std::string NormalizeName(std::string_view name) const;

  std::string cwd_;
  std::string normal_cwd_;
  std::vector<File> files_;
  // Spellings seen so far -> id (every call looks its names up here); and
  // normalised path -> id (only for a spelling not seen before).
  SpellingIndex by_name_;
  SpellingIndex by_path_;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_GRAPH_FILE_TABLE_H_
