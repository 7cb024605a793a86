// How a host runs jobs: one worker process per job, or persistent workers
// that run job after job (adapters/local/worker_pool.h). Chosen by
// `runtime.workers` and a host's `workers` (docs/configuration.md).
#ifndef GSRT_ADAPTERS_WORKER_MODE_H_
#define GSRT_ADAPTERS_WORKER_MODE_H_

#include <cstdint>
#include <string_view>

namespace gs {

enum class WorkerMode : uint8_t { kProcess, kPersistent };

inline std::string_view WorkerModeName(WorkerMode mode) {
  return mode == WorkerMode::kPersistent ? "persistent" : "process";
}

}  // namespace gs

#endif  // GSRT_ADAPTERS_WORKER_MODE_H_
