// How a host runs jobs: one worker process per job, persistent workers
// that run job after job (adapters/local/worker_pool.h), or a fork server
// that forks a fresh process per job from a worker that has run no user
// function (runtime/worker/persistent_loop.h). Chosen by `runtime.workers`
// and a host's `workers` (docs/configuration.md).
#ifndef GSRT_RUNTIME_JOBS_WORKER_MODE_H_
#define GSRT_RUNTIME_JOBS_WORKER_MODE_H_

#include <cstdint>
#include <string_view>

namespace gs {

enum class WorkerMode : uint8_t { kProcess, kPersistent, kFork };

inline std::string_view WorkerModeName(WorkerMode mode) {
  switch (mode) {
    case WorkerMode::kPersistent:
      return "persistent";
    case WorkerMode::kFork:
      return "fork";
    case WorkerMode::kProcess:
      break;
  }
  return "process";
}

}  // namespace gs

#endif  // GSRT_RUNTIME_JOBS_WORKER_MODE_H_
