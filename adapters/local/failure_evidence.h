// What a failed attempt leaves for the user: its sandbox (stdout, stderr,
// the result file, the temporaries of its outputs) moved out of the job
// area to work_dir/failed/<session>/task-<task>-<operation>-job-<job>, where
// the session names the adapter's start (UTC time and pid), so no later job
// or run reuses or overwrites it. Sessions older than a configured age are
// removed when an adapter connects; nothing else removes them. Its file
// work goes through a borrowed FileSystem; used on the adapter's thread.
#ifndef GSRT_ADAPTERS_LOCAL_FAILURE_EVIDENCE_H_
#define GSRT_ADAPTERS_LOCAL_FAILURE_EVIDENCE_H_

#include <sys/types.h>

#include <ctime>
#include <string>

#include "runtime/base/clock.h"
#include "runtime/base/file_system.h"
#include "runtime/base/status.h"
#include "runtime/jobs/job.h"

namespace gs {

// "20261124-195300-12345": the UTC time `now` and the process `pid`.
std::string EvidenceSession(std::time_t now, pid_t pid);

// "task-5-count-job-12"; characters other than [A-Za-z0-9_.-] in the
// operation become '_'.
std::string EvidenceName(TaskId task, const std::string& operation, JobId job);

class FailureEvidence {
 public:
  // Evidence goes to `failed_dir`/`session` on `fs`, which must outlive
  // this object.
  FailureEvidence(FileSystem& fs, std::string failed_dir, std::string session)
      : fs_(fs),
        failed_dir_(std::move(failed_dir)),
        session_(std::move(session)) {}

  // Moves `sandbox` to the session's directory under `name` (made 0700 on
  // first use); returns where it went.
  StatusOr<std::string> Keep(const std::string& sandbox,
                             const std::string& name);

  // Removes session directories whose last change is more than `max_age`
  // seconds before `now`; 0 keeps everything. Returns how many went.
  int RemoveOlderThan(Seconds max_age, std::time_t now) const;

  const std::string& session_dir() const { return session_dir_; }

 private:
  FileSystem& fs_;
  std::string failed_dir_;
  std::string session_;
  std::string session_dir_;  // made on the first Keep
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_LOCAL_FAILURE_EVIDENCE_H_
