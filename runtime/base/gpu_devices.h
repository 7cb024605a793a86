// The GPUs a machine shows its jobs, named as CUDA_VISIBLE_DEVICES names
// them, for a host whose gsrt.yaml entry does not list its `gpus`: the
// variable's own list when it is set (a batch allocation, or the user
// chose), else Slurm's SLURM_STEP_GPUS or SLURM_JOB_GPUS, else one device
// per NVIDIA device file /dev/nvidiaN. Empty: no GPU.
#ifndef GSRT_RUNTIME_BASE_GPU_DEVICES_H_
#define GSRT_RUNTIME_BASE_GPU_DEVICES_H_

#include <functional>
#include <string>
#include <vector>

namespace gs {

// Pure: `getenv` answers for the environment, `dev_entries` are the names
// in /dev.
std::vector<std::string> VisibleGpus(
    const std::function<const char*(const char*)>& getenv,
    const std::vector<std::string>& dev_entries);

// VisibleGpus of this process and this machine's /dev.
std::vector<std::string> VisibleGpusOfThisMachine();

}  // namespace gs

#endif  // GSRT_RUNTIME_BASE_GPU_DEVICES_H_
