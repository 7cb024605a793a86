// What a batch job was given, read from the variables the batch system sets
// in the job's environment. A pilot sized by its allocation runs as many
// jobs at once as it was given CPUs, and offers the memory it was given,
// whatever the node has besides (docs/slurm.md, "What a pilot offers").
#ifndef GSRT_ADAPTERS_BATCH_NODE_BATCH_ALLOCATION_H_
#define GSRT_ADAPTERS_BATCH_NODE_BATCH_ALLOCATION_H_

#include <cstdint>
#include <functional>

namespace gs {

struct BatchAllocation {
  uint32_t cpus = 0;          // 0: not told
  uint64_t memory_bytes = 0;  // 0: not told (the job may use the node's)
};

// getenv, or a table in tests: nullptr when the variable is not set.
using EnvironmentLookup = std::function<const char*(const char*)>;

// Slurm: SLURM_CPUS_ON_NODE (else the first count of
// SLURM_JOB_CPUS_PER_NODE, "4(x2),2"), SLURM_MEM_PER_NODE, else
// SLURM_MEM_PER_CPU times the CPUs (both MiB). PBS: NCPUS (PBS Pro), else
// PBS_NUM_PPN (Torque); PBS sets no memory variable. Values that are not
// positive numbers count as not told.
BatchAllocation AllocationFromEnvironment(const EnvironmentLookup& lookup);

}  // namespace gs

#endif  // GSRT_ADAPTERS_BATCH_NODE_BATCH_ALLOCATION_H_
