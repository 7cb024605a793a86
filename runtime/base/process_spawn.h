// Starting programs on this machine: the project's one posix_spawn wrapper
// (glibc: clone(CLONE_VM|CLONE_VFORK), no page-table copy, exec errors
// reported back) plus a pidfd that a Boost.Asio descriptor can wait on.
// Never a shell: argv goes to execve as given. The local adapter starts
// workers with SpawnProcess, PipeStream its child agent, and RunProgram
// (a short program, its output collected, bounded by a timeout) serves
// `gsdeploy setup` and the batch system's commands.
#ifndef GSRT_RUNTIME_BASE_PROCESS_SPAWN_H_
#define GSRT_RUNTIME_BASE_PROCESS_SPAWN_H_

#include <sys/types.h>

#include <string>
#include <vector>

#include "runtime/base/clock.h"
#include "runtime/base/status.h"

namespace gs {

// One of the child's standard descriptors: the parent's own when neither
// is set, else a descriptor of the parent (`fd`), else a file opened
// relative to the child's working directory, never through a symlink
// (`file`: read for stdin; for stdout and stderr created or truncated,
// mode 0600).
struct ChildStdio {
  int fd = -1;
  const char* file = nullptr;
};

struct SpawnRequest {
  // argv[0] is the program: a path, or with `search_path` a name looked up
  // in $PATH. Not copied (the local adapter starts a worker per job).
  const std::vector<std::string>* argv = nullptr;
  bool search_path = false;
  // Working directory of the child; "" keeps the parent's.
  std::string cwd;
  ChildStdio in, out, err;
  // Its own process group, so that a kill of -pid reaches the program's
  // children too.
  bool own_process_group = true;
  // "NAME=value" entries added to (or replacing in) the parent's
  // environment for this child only; null or empty passes the parent's.
  const std::vector<std::string>* env = nullptr;
  // "NAME=value" entries the child starts from instead of the parent's
  // environment (`env` still applies over them); null: the parent's.
  const std::vector<std::string>* base_env = nullptr;
};

struct SpawnedProcess {
  pid_t pid = -1;
  // Readable once the process has exited; the caller owns it.
  int pidfd = -1;
};

// Starts the process with SIGPIPE at its default, no blocked signals and
// every descriptor above 2 closed. Failures, exec errors included (missing
// program, no permission, bad cwd), come back as a Status.
StatusOr<SpawnedProcess> SpawnProcess(const SpawnRequest& request);

// The absolute path of `program` found in $PATH (or "/usr/bin:/bin"), ""
// when none is executable; a name holding '/' is returned as is.
std::string FindInPath(const std::string& program);
// The same, searching the directories of `path` (a $PATH value).
std::string FindInPath(const std::string& program, const std::string& path);

struct ProgramOutput {
  int exit_code = -1;  // -1 when killed by a signal
  int signal = 0;      // the signal that killed it, 0 if none
  std::string out;     // stdout (at most 64 KiB kept)
  std::string err;     // stderr (at most 64 KiB kept)
};

// Starts argv (argv[0] an absolute path) in $TMPDIR (or /tmp) with stdin
// from /dev/null, its output kept in memory, in its own process group and
// waits for it, at most `timeout` seconds; then the
// group is killed and the result is TimedOut. A program that cannot be
// started (missing, not executable, wrong format) is an error naming the
// reason. A non-zero exit is a result, not an error.
StatusOr<ProgramOutput> RunProgram(const std::vector<std::string>& argv,
                                   Seconds timeout);

// "`/path/app-worker --version` exited with code 2: <stderr's last line>"
// and the like, for messages.
std::string DescribeFailure(const std::vector<std::string>& argv,
                            const ProgramOutput& output);

}  // namespace gs

#endif  // GSRT_RUNTIME_BASE_PROCESS_SPAWN_H_
