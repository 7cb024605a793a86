// Job sandboxes (directories in work_dir/jobs) with reuse. Making and
// removing a directory costs ~150 us on ext4, renaming one ~7 us, and the
// local adapter aims at a few microseconds of overhead per job, so the
// sandbox of a successful job is kept and given, under the name it has,
// to a later job: a sandbox is named by the job that made it
// (jobs/<id>), and job ids only grow, so no later job wants that name. It
// keeps its (empty) stdout/stderr and its result file, which MarkStale()
// flags as not written by the next job (or a pooled worker does). All its
// file work goes through a borrowed FileSystem; used on the adapter's
// thread only.
#ifndef GSRT_ADAPTERS_LOCAL_SANDBOX_POOL_H_
#define GSRT_ADAPTERS_LOCAL_SANDBOX_POOL_H_

#include <string>
#include <vector>

#include "runtime/base/file_system.h"
#include "runtime/base/status.h"

namespace gs {

class SandboxPool {
 public:
  // Files a sandbox may hold when it goes back to the pool.
  static constexpr const char* kStdout = "stdout";
  static constexpr const char* kStderr = "stderr";
  static constexpr const char* kResult = "result";

  // Sandboxes live in `jobs_dir` of `fs` (which must outlive the pool); at
  // most `max_idle` are kept.
  SandboxPool(FileSystem& fs, std::string jobs_dir, int max_idle);
  ~SandboxPool() { Clear(); }

  SandboxPool(const SandboxPool&) = delete;
  SandboxPool& operator=(const SandboxPool&) = delete;

  // A sandbox for a job, mode 0700: an idle one, holding at most empty
  // stdout/stderr and an earlier job's result file (marked stale when
  // `mark_stale`; else the job's worker must see to it), or else a fresh
  // one made at `fresh` (a path in jobs_dir). Its path.
  StatusOr<std::string> Acquire(const std::string& fresh,
                                bool mark_stale = true);
  // The path the next Acquire(fresh) hands out when it succeeds.
  const std::string& NextPath(const std::string& fresh) const {
    return idle_.empty() ? fresh : idle_.back();
  }

  // Takes back the sandbox of a finished job. Reused when it holds only
  // empty stdout/stderr and the result file (looked at unless
  // `known_clean`); removed otherwise.
  void Release(const std::string& sandbox, bool known_clean = false);

  // Removes the idle sandboxes.
  void Clear();

  // Removes `sandbox` entirely (cancelled, timed out, never started).
  void Remove(const std::string& sandbox);

  int idle() const { return static_cast<int>(idle_.size()); }

 private:
  // True when `dir` holds nothing but the files a pooled sandbox may keep.
  bool OnlyPoolFiles(const std::string& dir);

  FileSystem& fs_;
  std::string jobs_dir_;
  int max_idle_;
  std::vector<std::string> idle_;  // under the names they were made with
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_LOCAL_SANDBOX_POOL_H_
