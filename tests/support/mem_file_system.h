// An in-memory FileSystem for tests (leveldb's memenv): files are strings
// under absolute paths, directories a set. It keeps the rules the engine
// and the local adapter rely on: a file is written or renamed only into an
// existing directory, a rename replaces its target (a directory only when
// empty), a non-empty directory is not removed, a lock is exclusive. It has
// no permission bits: ReplaceOptions change nothing. Safe to use from
// several threads.
#ifndef GSRT_TESTS_SUPPORT_MEM_FILE_SYSTEM_H_
#define GSRT_TESTS_SUPPORT_MEM_FILE_SYSTEM_H_

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "runtime/base/file_system.h"

namespace gs::testing {

class MemFileSystem : public FileSystem {
 public:
  MemFileSystem();

  FileInfo Stat(const std::string& path) override;
  Status Read(const std::string& path,
              const std::function<void(std::string_view)>& chunk) override;
  Status WriteFile(const std::string& path, std::string_view bytes) override;
  Status CopyFile(const std::string& from, const std::string& to) override;
  StatusOr<FileInfo> Examine(const std::string& path) override;
  Status SetModified(const std::string& path, int64_t mtime_ns) override;
  Status ListDir(const std::string& path,
                 const std::function<bool(const DirEntry&)>& entry) override;
  StatusOr<uint64_t> FreeBytes(const std::string& path) override;
  Status Rename(const std::string& from, const std::string& to) override;
  Status RenameWith(const std::string& from, const std::string& to,
                    const ReplaceOptions& options) override;
  Status CopyAtomically(const std::string& from, const std::string& to,
                        const ReplaceOptions& options) override;
  Status Remove(const std::string& path) override;
  Status RemoveDir(const std::string& path) override;
  Status RemoveAll(const std::string& path) override;
  Status CreateDirs(const std::string& path) override;
  Status MakePrivateDir(const std::string& path) override;
  Status RestrictToOwner(const std::string& path) override;
  StatusOr<std::unique_ptr<FileLock>> Lock(const std::string& path) override;

  // For tests: writes `bytes` at `path`, creating its directories.
  void Put(const std::string& path, std::string_view bytes);
  // The bytes at `path`, or nullopt when no file is there.
  std::optional<std::string> Contents(const std::string& path);
  // Every file under `dir` (paths), sorted.
  std::vector<std::string> FilesUnder(const std::string& dir);
  bool IsDir(const std::string& path);
  // Directories made private with RestrictToOwner or MakePrivateDir.
  bool IsPrivate(const std::string& path);
  // What FreeBytes answers; unlimited (UINT64_MAX) at first.
  void set_free_bytes(uint64_t bytes);

 private:
  class Held;
  struct File {
    std::string bytes;
    int64_t mtime_ns = 0;
    uint64_t inode = 0;
  };
  void PutLocked(const std::string& path, std::string bytes);
  bool ParentExistsLocked(const std::string& path) const;
  bool HasChildrenLocked(const std::string& dir) const;
  void CreateDirsLocked(const std::string& path);
  Status RenameDirLocked(const std::string& from, const std::string& to);
  void ReleaseLock(const std::string& path);

  std::mutex mu_;
  std::map<std::string, File> files_;
  std::set<std::string> dirs_;
  std::set<std::string> private_;
  std::set<std::string> locked_;
  int64_t tick_ = 0;  // stands for the time of each write
  uint64_t next_inode_ = 1;
  uint64_t free_bytes_ = UINT64_MAX;
};

}  // namespace gs::testing

#endif  // GSRT_TESTS_SUPPORT_MEM_FILE_SYSTEM_H_
