// Everything GS_On decides before the engine starts: working and work
// directories, the worker program, the hosts, the environment switches.
#ifndef GSRT_RUNTIME_MASTER_MASTER_SETUP_H_
#define GSRT_RUNTIME_MASTER_MASTER_SETUP_H_

#include <memory>
#include <string>

#include "runtime/base/messages.h"
#include "runtime/base/status.h"
#include "runtime/engine/engine.h"

namespace gs {

// The worker next to the running executable (`<exe>-worker`), or
// $GSRT_WORKER. Fails with what to do when it is missing.
StatusOr<std::string> FindWorker();

// Where a master process tells its user everything: its stderr (the
// progress line included).
MessageSink& MasterMessages();

// Builds and starts the engine of this master process. The engine, its
// adapters and observers and the setup itself speak through `messages`,
// which must outlive the engine.
StatusOr<std::unique_ptr<Engine>> StartMasterEngine(MessageSink& messages);

}  // namespace gs

#endif  // GSRT_RUNTIME_MASTER_MASTER_SETUP_H_
