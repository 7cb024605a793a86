// A host's GPUs, by the names CUDA_VISIBLE_DEVICES gives them ("0", "1",
// or UUIDs), and which job holds each: a job that needs k of them gets k
// devices of its own when it is dispatched and gives them back when it
// ends, so no device is ever held by two jobs. The scheduler counts them
// (HostState::gpus); this picks which. Under the engine's mutex.
#ifndef GSRT_RUNTIME_ENGINE_GPU_POOL_H_
#define GSRT_RUNTIME_ENGINE_GPU_POOL_H_

#include <optional>
#include <string>
#include <vector>

#include "runtime/jobs/job.h"

namespace gs {

class GpuPool {
 public:
  GpuPool() = default;
  explicit GpuPool(std::vector<std::string> devices);

  int size() const { return static_cast<int>(devices_.size()); }
  int free() const;
  // `k` free devices for `job`, in the order the host lists them; none
  // (empty) when fewer than `k` are free.
  std::vector<std::string> Take(JobId job, int k);
  // What `job` held is free again (nothing when it held none).
  void Release(JobId job);

 private:
  std::vector<std::string> devices_;
  std::vector<std::optional<JobId>> holder_;  // by device; none: free
};

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_GPU_POOL_H_
