#include "adapters/batch/node/batch_claim.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>

#include "adapters/batch/node/batch_job_runner.h"

namespace gs {

std::string BatchClaimPath(const std::string& dir, int index) {
  return dir + "/claim." + std::to_string(index);
}

StatusOr<ClaimOutcome> ClaimBatchElement(const std::string& dir, int index,
                                         const std::string& owner) {
  const std::string path = BatchClaimPath(dir, index);
  // Unique per process and call: claimants may share a process (tests).
  static std::atomic<int> calls{0};
  const std::string temp = path + ".tmp." + std::to_string(::getpid()) + "." +
                           std::to_string(calls++);
  if (Status s = WriteFileAtomically(temp, owner); !s.ok()) return s;
  const int linked = ::link(temp.c_str(), path.c_str());
  const int err = errno;
  ::unlink(temp.c_str());
  if (linked == 0) return ClaimOutcome(ClaimWon{});
  if (err != EEXIST) return Status::FromErrno("claim " + path, err);
  auto held = ReadSmallFile(path);
  if (!held.ok()) return held.status();
  return ClaimOutcome(ClaimHeld{std::move(held).value()});
}

std::string OwnBatchId(const std::function<const char*(const char*)>& lookup) {
  auto get = [&](const char* name) {
    const char* v = lookup(name);
    return std::string(v != nullptr ? v : "");
  };
  const std::string array = get("SLURM_ARRAY_JOB_ID");
  const std::string task = get("SLURM_ARRAY_TASK_ID");
  if (!array.empty() && !task.empty()) return array + "_" + task;
  if (std::string id = get("SLURM_JOB_ID"); !id.empty()) return id;
  return get("PBS_JOBID");
}

}  // namespace gs
