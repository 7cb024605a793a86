#include "runtime/sched/implementation_choice.h"

namespace gs {

SpareRoom SpareAfterRound(const HostState& host,
                          const std::vector<Need>& placed_here) {
  SpareRoom spare;
  spare.cores = host.usable ? host.slots - host.busy_cores() : 0;
  spare.memory_limited = host.memory_gb > 0;
  spare.memory_gb = host.memory_gb - host.busy_memory();
  spare.gpus = host.gpus - host.busy_gpus();
  for (const Need& need : placed_here) {
    spare.cores -= need.cores;
    spare.memory_gb -= need.memory_gb;
    spare.gpus -= need.gpus;
  }
  return spare;
}

int ChooseImplementation(const Need& base,
                         const std::vector<Need>& alternatives,
                         SpareRoom* spare) {
  for (size_t i = 0; i < alternatives.size(); ++i) {
    const Need& alt = alternatives[i];
    const int more_cores = alt.cores - base.cores;
    const double more_memory = alt.memory_gb - base.memory_gb;
    const int more_gpus = alt.gpus - base.gpus;
    if (more_cores > spare->cores) continue;
    if (spare->memory_limited && more_memory > spare->memory_gb) continue;
    if (more_gpus > spare->gpus) continue;
    spare->cores -= more_cores;
    spare->memory_gb -= more_memory;
    spare->gpus -= more_gpus;
    return static_cast<int>(i);
  }
  return -1;
}

}  // namespace gs
