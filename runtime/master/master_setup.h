// Everything GS_On decides before the engine starts: working and work
// directories, the worker program, the hosts, the environment switches.
#ifndef GSRT_RUNTIME_MASTER_MASTER_SETUP_H_
#define GSRT_RUNTIME_MASTER_MASTER_SETUP_H_

#include <memory>
#include <string>

#include "runtime/base/status.h"
#include "runtime/engine/engine.h"

namespace gs {

// The worker next to the running executable (`<exe>-worker`), or
// $GSRT_WORKER. Fails with what to do when it is missing.
StatusOr<std::string> FindWorker();

// Builds and starts the engine of this master process.
StatusOr<std::unique_ptr<Engine>> StartMasterEngine();

}  // namespace gs

#endif  // GSRT_RUNTIME_MASTER_MASTER_SETUP_H_
