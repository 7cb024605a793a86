// Job sandboxes (directories work_dir/jobs/<id>) with reuse. Making and
// removing a directory costs ~150 us on ext4, renaming one ~7 us, and the
// local adapter aims at a few tens of microseconds of overhead per job, so
// the sandbox of a successful job is renamed to an idle name and renamed
// again for a later job, keeping its (empty) stdout/stderr and its result
// file, which MarkStale() flags as not written by the next job. All its
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

  // Removes idle sandboxes left by an earlier process (names starting with
  // ".idle."), so that reuse only ever starts from directories this pool
  // checked.
  void RemoveStale();

  // Makes `sandbox` (a path in jobs_dir), mode 0700, holding nothing the
  // next worker could mistake for its own: at most empty stdout/stderr and
  // a result file marked stale.
  Status Acquire(const std::string& sandbox);

  // Takes back the sandbox of a finished job. Reused when it holds only
  // empty stdout/stderr and the result file; removed otherwise.
  void Release(const std::string& sandbox);

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
  std::string idle_prefix_;  // jobs_dir/.idle.PID.
  int max_idle_;
  unsigned long next_name_ = 0;
  std::vector<std::string> idle_;
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_LOCAL_SANDBOX_POOL_H_
