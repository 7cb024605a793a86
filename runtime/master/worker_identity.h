// The identity of the code a run's jobs execute: a hash of the worker
// binary's bytes (the application's functions are linked into it). A
// resumed run reuses only tasks computed by the same worker, so a rebuilt
// worker with changed functions runs them again.
#ifndef GSRT_RUNTIME_MASTER_WORKER_IDENTITY_H_
#define GSRT_RUNTIME_MASTER_WORKER_IDENTITY_H_

#include <string>

#include "runtime/base/status.h"

namespace gs {

// "w:<16 hex digits>:<size>" from the bytes of the file at `worker_path`.
StatusOr<std::string> WorkerIdentity(const std::string& worker_path);

}  // namespace gs

#endif  // GSRT_RUNTIME_MASTER_WORKER_IDENTITY_H_
