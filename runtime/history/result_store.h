// The work dir's content-addressed store of task outputs (docs/reuse.md):
// `<work_dir>/store/<2 hex>/<32 hex>-<size>`, one file per distinct
// content, a hard link of the output the task wrote (a copy where the
// store is on another file system). Reuse entries (reuse_entry.h) name
// these files; a run that reuses a task links them back in place.
// Thread-compatible; every method is plain file I/O on the master.
#ifndef GSRT_RUNTIME_HISTORY_RESULT_STORE_H_
#define GSRT_RUNTIME_HISTORY_RESULT_STORE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/history/reuse_entry.h"

namespace gs {

// A file's content and the facts of the stored copy.
struct StoredFile {
  std::string content;  // ContentId
  int64_t size = 0;
  int64_t mtime_ns = 0;
};

// What a stat says of a file, to tell whether a hash taken earlier still
// holds without reading it again.
struct FileStamp {
  bool exists = false;
  int64_t size = 0;
  int64_t mtime_ns = 0;
  int64_t ctime_ns = 0;
  uint64_t inode = 0;
};
// Of a regular file only (else !exists), or of any kind with `any_kind`
// (a directory, whose times change when an entry is added).
FileStamp StampOf(const std::string& path, bool any_kind = false);

// A user's file as last hashed (table file_hashes).
struct FileHash {
  std::string path;
  FileStamp stamp;
  std::string content;  // ContentId
  double hashed = 0;    // wall-clock seconds since the epoch
};

// Whether `cached` still names the content of a file that stats as `now`:
// the same size, modification and change times and inode, and a hash
// taken at least a second after the last change (a write within the
// clock's tick of the hash could leave the times as they were, as git's
// "racily clean" files).
bool CachedHashHolds(const FileHash& cached, const FileStamp& now);
// The same rule for any fact learnt from a file stamped `then`, at
// `learnt` (wall-clock seconds since the epoch).
bool StampStillHolds(const FileStamp& then, double learnt,
                     const FileStamp& now);

class ResultStore {
 public:
  // `dir` is created on the first Put (mode 0700).
  explicit ResultStore(std::string dir) : dir_(std::move(dir)) {}

  // What one reading of a file can say besides its ContentId.
  struct ReadFacts {
    FileStamp stamp;         // taken as it was opened
    std::string journal_id;  // ContentVersionId (journal.h)
  };
  // The ContentId of the file at `path` (SHA-256 of its bytes); NotFound
  // when there is none. One pass: open, fstat, read, close.
  static StatusOr<StoredFile> Identify(const std::string& path,
                                       ReadFacts* facts = nullptr);

  // Identifies the file at `path` and keeps its bytes in the store (a file
  // of that content there already is kept as it is).
  StatusOr<StoredFile> Put(const std::string& path);
  // Whether the store still holds `out`'s content as it was stored (same
  // size and modification time).
  bool Holds(const ReuseOutput& out) const;
  // Puts the stored bytes of `content` at `dest` (a hard link, else a
  // copy), replacing what is there.
  Status Materialize(std::string_view content, const std::string& dest) const;

  // The store's file for `content` ("" when `content` is no ContentId).
  std::string PathOf(std::string_view content) const;
  const std::string& dir() const { return dir_; }

  // Every stored file.
  std::vector<StoredFile> List() const;
  Status Remove(std::string_view content);
  // Removes the whole store.
  Status Clear();

 private:
  std::string dir_;
};

// What `gsrt cache gc` and a run's end remove so that the store holds at
// most `limit` bytes: files no entry names, then those of the least
// recently used entries (entries in LoadReuse order, least recent first);
// an entry loses its place when one of its files goes.
struct StoreCollection {
  std::vector<std::string> remove_contents;
  std::vector<std::string> drop_keys;
  uint64_t bytes_before = 0;
  uint64_t bytes_after = 0;
};
StoreCollection PlanStoreCollection(const std::vector<ReuseEntry>& entries,
                                    const std::vector<StoredFile>& files,
                                    uint64_t limit);

}  // namespace gs

#endif  // GSRT_RUNTIME_HISTORY_RESULT_STORE_H_
