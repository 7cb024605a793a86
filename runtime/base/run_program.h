// Runs a short program on this machine and collects its output, bounded by
// a timeout: `gsdeploy setup` uses it for `APP-worker --version`.
#ifndef GSRT_RUNTIME_BASE_RUN_PROGRAM_H_
#define GSRT_RUNTIME_BASE_RUN_PROGRAM_H_

#include <string>
#include <vector>

#include "runtime/base/clock.h"
#include "runtime/base/status.h"

namespace gs {

struct ProgramOutput {
  int exit_code = -1;  // -1 when killed by a signal
  int signal = 0;      // the signal that killed it, 0 if none
  std::string out;     // stdout (at most 64 KiB kept)
  std::string err;     // stderr (at most 64 KiB kept)
};

// Starts argv (argv[0] an absolute path; no shell) with stdin from
// /dev/null and waits for it, at most `timeout` seconds; then it is killed
// and the result is TimedOut. A program that cannot be started (missing,
// not executable, wrong format) is an error naming the reason. A non-zero
// exit is a result, not an error.
StatusOr<ProgramOutput> RunProgram(const std::vector<std::string>& argv,
                                   Seconds timeout);

// "`/path/app-worker --version` exited with code 2: <stderr's last line>"
// and the like, for messages.
std::string DescribeFailure(const std::vector<std::string>& argv,
                            const ProgramOutput& output);

}  // namespace gs

#endif  // GSRT_RUNTIME_BASE_RUN_PROGRAM_H_
