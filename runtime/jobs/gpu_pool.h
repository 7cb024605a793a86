// A host's GPUs, by the names CUDA_VISIBLE_DEVICES gives them ("0", "1",
// or UUIDs), and which job holds each: a job that needs k of them gets k
// devices of its own when it starts and gives them back when it ends, so
// no device is ever held by two jobs. Who names a job's devices depends on
// the host (GpuNaming); the engine's pools count what its scheduler places
// (HostState::gpus), an agent's pool names its allocation's devices. Not
// thread-safe: its owner's lock or thread.
#ifndef GSRT_RUNTIME_JOBS_GPU_POOL_H_
#define GSRT_RUNTIME_JOBS_GPU_POOL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/jobs/job.h"

namespace gs {

enum class GpuNaming : uint8_t {
  kPool,    // Take() names them: a host's declared or detected devices
  kQueue,   // a batch job's queue names them (job mode, `--gres=gpu:k`)
  kAgents,  // the host's agents name the devices their machine or
            // allocation shows (pilots, undeclared ssh hosts); the count is
            // learned from them (Resize)
};

class GpuPool {
 public:
  GpuPool() = default;
  explicit GpuPool(std::vector<std::string> devices,
                   GpuNaming naming = GpuNaming::kPool);

  int size() const { return static_cast<int>(devices_.size()); }
  int free() const;
  // Whether a job is told the devices Take() picked.
  bool names_devices() const { return naming_ == GpuNaming::kPool; }
  bool learned() const { return naming_ == GpuNaming::kAgents; }
  // `k` free devices for `job`, in the order the host lists them; none
  // (empty) when fewer than `k` are free.
  std::vector<std::string> Take(JobId job, int k);
  // What `job` held is free again (nothing when it held none).
  void Release(JobId job);
  // A learned pool grows or shrinks to `count` devices (pilots came or
  // went); holders of devices that go keep nothing.
  void Resize(int count);

 private:
  std::vector<std::string> devices_;
  GpuNaming naming_ = GpuNaming::kPool;
  std::vector<std::optional<JobId>> holder_;  // by device; none: free
};

}  // namespace gs

#endif  // GSRT_RUNTIME_JOBS_GPU_POOL_H_
