#include "adapters/batch/node/batch_allocation.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace gs {
namespace {

BatchAllocation From(const std::map<std::string, std::string>& vars) {
  return AllocationFromEnvironment([&](const char* name) -> const char* {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  });
}

constexpr uint64_t kMiB = uint64_t{1} << 20;

TEST(BatchAllocationTest, OutsideABatchJobNothingIsTold) {
  BatchAllocation a = From({});
  EXPECT_EQ(a.cpus, 0u);
  EXPECT_EQ(a.memory_bytes, 0u);
}

TEST(BatchAllocationTest, SlurmCpusOnNodeAndMemoryPerNode) {
  BatchAllocation a =
      From({{"SLURM_CPUS_ON_NODE", "4"}, {"SLURM_MEM_PER_NODE", "3000"}});
  EXPECT_EQ(a.cpus, 4u);
  EXPECT_EQ(a.memory_bytes, 3000 * kMiB);
}

TEST(BatchAllocationTest, SlurmMemoryPerCpuIsTimesTheCpus) {
  BatchAllocation a =
      From({{"SLURM_CPUS_ON_NODE", "3"}, {"SLURM_MEM_PER_CPU", "512"}});
  EXPECT_EQ(a.memory_bytes, 3 * 512 * kMiB);
}

TEST(BatchAllocationTest, SlurmJobCpusPerNodeTakesThisNodesCount) {
  EXPECT_EQ(From({{"SLURM_JOB_CPUS_PER_NODE", "8(x2),4"}}).cpus, 8u);
  EXPECT_EQ(From({{"SLURM_JOB_CPUS_PER_NODE", "6"}}).cpus, 6u);
}

TEST(BatchAllocationTest, PbsProThenTorque) {
  EXPECT_EQ(From({{"NCPUS", "16"}, {"PBS_NUM_PPN", "2"}}).cpus, 16u);
  EXPECT_EQ(From({{"PBS_NUM_PPN", "2"}}).cpus, 2u);
}

TEST(BatchAllocationTest, GarbledValuesCountAsNotTold) {
  for (const char* bad : {"", "x", "-2", "4cpus", "99999999999999999999"}) {
    BatchAllocation a =
        From({{"SLURM_CPUS_ON_NODE", bad}, {"SLURM_MEM_PER_NODE", bad}});
    EXPECT_EQ(a.cpus, 0u) << bad;
    EXPECT_EQ(a.memory_bytes, 0u) << bad;
  }
  // Memory per CPU needs the CPUs it multiplies.
  EXPECT_EQ(From({{"SLURM_MEM_PER_CPU", "512"}}).memory_bytes, 0u);
}

}  // namespace
}  // namespace gs
