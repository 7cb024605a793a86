#include "adapters/ssh/program_digest.h"

#include <sys/stat.h>

#include <cerrno>
#include <map>
#include <mutex>
#include <tuple>

#include "runtime/base/sha256.h"

namespace gs {
namespace {

// What changes when a file is rewritten or replaced.
using FileVersion = std::tuple<dev_t, ino_t, off_t, long, long, long, long>;

StatusOr<FileVersion> VersionOf(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    return Status::FromErrno("cannot read " + path, errno);
  }
  return FileVersion{st.st_dev,         st.st_ino,          st.st_size,
                     st.st_mtim.tv_sec, st.st_mtim.tv_nsec, st.st_ctim.tv_sec,
                     st.st_ctim.tv_nsec};
}

}  // namespace

StatusOr<std::string> ProgramSha256(const std::string& path) {
  static std::mutex mu;
  static std::map<std::string, std::pair<FileVersion, std::string>> known;
  auto before = VersionOf(path);
  if (!before.ok()) return before.status();
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = known.find(path);
    if (it != known.end() && it->second.first == *before) {
      return it->second.second;
    }
  }
  Sha256 hash;
  if (Status s = HashFile(path, &hash); !s.ok()) return s;
  std::string digest = hash.Hex();
  // Kept only if the file did not change while it was read.
  auto after = VersionOf(path);
  if (after.ok() && *after == *before) {
    std::lock_guard<std::mutex> lock(mu);
    known[path] = {*before, digest};
  }
  return digest;
}

}  // namespace gs
