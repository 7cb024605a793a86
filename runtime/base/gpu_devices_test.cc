#include "runtime/base/gpu_devices.h"

#include <gtest/gtest.h>

#include <map>

namespace gs {
namespace {

using Env = std::map<std::string, std::string>;

std::vector<std::string> Visible(const Env& env,
                                 const std::vector<std::string>& dev = {}) {
  return VisibleGpus(
      [&env](const char* name) -> const char* {
        auto it = env.find(name);
        return it == env.end() ? nullptr : it->second.c_str();
      },
      dev);
}

using Ids = std::vector<std::string>;

TEST(GpuDevicesTest, CudaVisibleDevicesWinsEvenWhenEmpty) {
  EXPECT_EQ(Visible({{"CUDA_VISIBLE_DEVICES", "2,3"}}, {"nvidia0"}),
            (Ids{"2", "3"}));
  EXPECT_EQ(Visible({{"CUDA_VISIBLE_DEVICES", "GPU-a1,GPU-b2"}}),
            (Ids{"GPU-a1", "GPU-b2"}));
  EXPECT_EQ(Visible({{"CUDA_VISIBLE_DEVICES", ""}}, {"nvidia0"}), Ids{});
  EXPECT_EQ(Visible({{"CUDA_VISIBLE_DEVICES", "-1"}}, {"nvidia0"}), Ids{});
  EXPECT_EQ(Visible({{"CUDA_VISIBLE_DEVICES", "NoDevFiles"}}), Ids{});
}

TEST(GpuDevicesTest, ThenSlurmsAllocation) {
  EXPECT_EQ(Visible({{"SLURM_JOB_GPUS", "0,1"}, {"SLURM_STEP_GPUS", "1"}}),
            Ids{"1"});
  EXPECT_EQ(Visible({{"SLURM_JOB_GPUS", "0,1"}}), (Ids{"0", "1"}));
}

TEST(GpuDevicesTest, ThenTheDeviceFilesInOrder) {
  EXPECT_EQ(Visible({}, {"null", "nvidia10", "nvidiactl", "nvidia2",
                         "nvidia-uvm", "nvidia0", "nvidia-caps"}),
            (Ids{"0", "2", "10"}));
  EXPECT_EQ(Visible({}, {"null", "tty0"}), Ids{});
}

}  // namespace
}  // namespace gs
