// Starting a worker process as fast as the platform allows: posix_spawn
// (glibc: clone(CLONE_VM|CLONE_VFORK), no page-table copy, exec errors
// reported back) plus a pidfd that a Boost.Asio descriptor can wait on.
// Never a shell: argv goes to execve as given.
#ifndef GSRT_RUNTIME_BASE_PROCESS_SPAWN_H_
#define GSRT_RUNTIME_BASE_PROCESS_SPAWN_H_

#include <sys/types.h>

#include <string>
#include <vector>

#include "runtime/base/status.h"

namespace gs {

struct SpawnRequest {
  // argv[0] is the absolute path of the program.
  const std::vector<std::string>* argv = nullptr;
  // Working directory of the child (absolute).
  std::string cwd;
  // Opened by the child, relative to `cwd`, created/truncated (mode 0600).
  const char* stdout_name = "stdout";
  const char* stderr_name = "stderr";
  // An open read-only descriptor of /dev/null for the child's stdin.
  int devnull_fd = -1;
};

struct SpawnedProcess {
  pid_t pid = -1;
  // Readable once the process has exited; the caller owns it.
  int pidfd = -1;
};

// Starts the process in its own process group (so that a kill reaches the
// worker's children too), with SIGPIPE at its default and no blocked
// signals, every descriptor above 2 closed. Failures, exec errors included
// (missing program, no permission, bad cwd), come back as a Status.
StatusOr<SpawnedProcess> SpawnProcess(const SpawnRequest& request);

}  // namespace gs

#endif  // GSRT_RUNTIME_BASE_PROCESS_SPAWN_H_
