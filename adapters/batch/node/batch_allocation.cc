#include "adapters/batch/node/batch_allocation.h"

#include <charconv>
#include <string_view>

namespace gs {

namespace {

// The decimal number `text` starts with ("4(x2),2" -> 4); with `whole`,
// only if nothing follows it. 0 when there is none.
uint64_t Count(const char* text, bool whole = true) {
  if (text == nullptr) return 0;
  std::string_view s(text);
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end == s.data()) return 0;
  if (whole && end != s.data() + s.size()) return 0;
  return value;
}

constexpr uint64_t kMiB = uint64_t{1} << 20;
// More than any node has: a larger figure is a misreading, not a machine.
constexpr uint64_t kMaxCpus = 1u << 20;
constexpr uint64_t kMaxMiB = uint64_t{1} << 40;

}  // namespace

BatchAllocation AllocationFromEnvironment(const EnvironmentLookup& lookup) {
  uint64_t cpus = Count(lookup("SLURM_CPUS_ON_NODE"));
  if (cpus == 0)
    cpus = Count(lookup("SLURM_JOB_CPUS_PER_NODE"), /*whole=*/false);
  if (cpus == 0) cpus = Count(lookup("NCPUS"));
  if (cpus == 0) cpus = Count(lookup("PBS_NUM_PPN"));
  if (cpus > kMaxCpus) cpus = 0;

  uint64_t mib = Count(lookup("SLURM_MEM_PER_NODE"));
  if (mib == 0 && cpus > 0) mib = Count(lookup("SLURM_MEM_PER_CPU")) * cpus;
  if (mib > kMaxMiB) mib = 0;

  BatchAllocation a;
  a.cpus = static_cast<uint32_t>(cpus);
  a.memory_bytes = mib * kMiB;
  return a;
}

}  // namespace gs
