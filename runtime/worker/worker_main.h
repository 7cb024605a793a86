// The worker program's command line (gs_worker_main of gs/gs_abi.h), with
// its output streams as parameters so tests can run it in-process:
//
//   NAME-worker run OP RESULT_PATH ARG1 ... ARGn
//   NAME-worker serve PARENT_PID   (runtime/worker/persistent_loop.h)
//   NAME-worker fork-server PARENT_PID   (the same file)
//   NAME-worker --list | --version | --help
#ifndef GSRT_RUNTIME_WORKER_WORKER_MAIN_H_
#define GSRT_RUNTIME_WORKER_WORKER_MAIN_H_

#include <ostream>

#include "gs/gs_abi.h"

namespace gs {

// Exit codes of a worker, which the runtime's adapters interpret.
enum WorkerExit {
  kWorkerOk = 0,
  kWorkerFunctionFailed = 1,  // the user's function threw
  kWorkerBadCall = 2,         // bad command line, unknown op, bad argument
  kWorkerResultFailed = 3,    // the result file could not be written
};

int RunWorker(int argc, const char* const* argv, const char* interface_name,
              const gs_worker_entry* entries, int num_entries,
              std::ostream& out, std::ostream& err);

}  // namespace gs

#endif  // GSRT_RUNTIME_WORKER_WORKER_MAIN_H_
