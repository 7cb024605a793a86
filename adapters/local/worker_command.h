// The worker command-line contract, shared by every adapter that starts
// workers (the local adapter, also inside agents):
//   WORKER run OP RESULT_PATH ARG1 ... ARGn
// with one ARG per JobSpec parameter, in order:
//   kScalar, kInOutScalar -> the encoded value
//   kOutScalar            -> "" (a placeholder keeping positions stable)
//   kFileIn               -> the input's path (`source`)
//   kFileOut, kFileInOut  -> SANDBOX/out.<index>, a temporary the worker
//                            writes, `dest` only after success (kFileInOut:
//                            the adapter first copies `source` there)
// The argv goes to the worker untouched: no shell is ever involved, so
// values may hold spaces, quotes, `;`, `$` or newlines.
#ifndef GSRT_ADAPTERS_LOCAL_WORKER_COMMAND_H_
#define GSRT_ADAPTERS_LOCAL_WORKER_COMMAND_H_

#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/jobs/job.h"

namespace gs {

// One output the worker writes to `temp` and that becomes `dest` after
// success.
struct OutputMove {
  int param_index = 0;
  std::string temp;
  std::string dest;
  // kFileInOut: the input version copied to `temp` before the worker runs;
  // empty for kFileOut.
  std::string source;
};

struct WorkerCommand {
  // argv[0] is the worker's path; pass it to exec as is.
  std::vector<std::string> argv;
  // SANDBOX/result: the worker's encoded results, one per line.
  std::string result_path;
  // In parameter order.
  std::vector<OutputMove> outputs;
};

// Builds the command for `spec` run in directory `sandbox` (absolute, no
// trailing slash). Pure: touches no file. Fails (InvalidArgument) when the
// spec cannot be expressed as an argv: empty or relative worker path, empty
// operation, a file parameter without its path, or a NUL byte in any value.
StatusOr<WorkerCommand> BuildWorkerCommand(const JobSpec& spec,
                                           std::string_view sandbox);

// The temporary path of the output at parameter `index` in `sandbox`.
std::string OutputTempPath(std::string_view sandbox, int index);

}  // namespace gs

#endif  // GSRT_ADAPTERS_LOCAL_WORKER_COMMAND_H_
