// Short remote commands and file installation over an SshSession.
// The synchronous functions BLOCK the calling thread until the command
// ends or `timeout` passes; they are for setting a host up (inside an
// adapter's Connect, before the host takes jobs). Call them on the thread
// that runs the session's io_context, or where no thread runs it (then
// they run the io_context's other work while they wait, so the agents of
// hosts connected before keep their heartbeats): docs/ssh.md, "Threading
// and blocking". RunCommandAsync is the non-blocking form for use while
// the engine runs.
// Remote paths: relative paths start at the remote login directory; a
// leading "~/" means the same (it is not left to the shell to expand).
#ifndef GSRT_ADAPTERS_SSH_SSH_REMOTE_H_
#define GSRT_ADAPTERS_SSH_SSH_REMOTE_H_

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "adapters/ssh/ssh_session.h"
#include "runtime/base/clock.h"
#include "runtime/base/status.h"

namespace gs {

struct CommandResult {
  int exit_code = -1;  // -1 when killed by a signal or none was sent
  std::string signal;  // "KILL", ... when killed by a signal
  std::string out;     // everything on stdout
  std::string err;     // everything on stderr
};

struct RunOptions {
  // Bound on the whole command; on expiry the command's process group is
  // sent KILL through sshd and the result is TimedOut. Best effort: OpenSSH
  // refuses signals for root logins, and closing the channel does not stop
  // a command (no terminal, no SIGHUP), so it may run on. Default: 30 s.
  Seconds timeout = 30;
  // Bytes for the command's stdin, followed by EOF. Default: none.
  std::string stdin_data;
  // Instead of stdin_data: the next chunk of stdin, "" at the end. Called
  // as the channel window allows, so large inputs are streamed.
  std::function<StatusOr<std::string>()> stdin_source;
  // stdout + stderr beyond this fail the command. Default: 64 MiB.
  size_t max_output = size_t{64} << 20;
};

// Runs argv (quoted for the remote shell) and collects its output and
// exit status; a non-zero exit is a result, not an error. Errors:
// InvalidArgument (argv), TimedOut, Unavailable (connection, channel).
StatusOr<CommandResult> RunCommand(SshSession& session,
                                   const std::vector<std::string>& argv,
                                   const RunOptions& options = {});

// Non-blocking RunCommand: `done` fires once, later, on the io_context.
void RunCommandAsync(std::shared_ptr<SshSession> session,
                     const std::vector<std::string>& argv, RunOptions options,
                     std::function<void(StatusOr<CommandResult>)> done);

// "~/x" -> "x", "~" -> "."; other paths unchanged.
std::string RemotePath(const std::string& path);

// mkdir -p with mode 0700 for a new last component; fails unless the
// directory then exists and is writable.
Status EnsureRemoteDir(SshSession& session, const std::string& path,
                       Seconds timeout = 30);

// The SHA-256 (hex) of a remote file, or "" if it does not exist.
StatusOr<std::string> RemoteSha256(SshSession& session, const std::string& path,
                                   Seconds timeout = 30);

struct UploadResult {
  uint64_t bytes = 0;
  std::string sha256;
};

// Streams the local file into `remote` (parent created, mode 0700) under
// a temporary name, sets `mode`, renames it into place and checks size and
// SHA-256 on arrival. A damaged copy is an IoError naming both digests.
StatusOr<UploadResult> UploadFile(SshSession& session, const std::string& local,
                                  const std::string& remote, int mode = 0644,
                                  Seconds timeout = 300);

struct InstallResult {
  bool uploaded = false;  // false: the remote copy was already identical
  std::string version;    // what `remote --version` printed, trimmed
};

// Installs a program: uploads `local` to `remote` only when the remote
// file is missing or its SHA-256 differs, makes it mode 0755 and runs
// `remote --version`. A program that does not start there is a
// FailedPrecondition quoting its stderr (wrong architecture, missing
// shared library, ...). `timeout` bounds the upload; the other steps get
// at most 30 s each.
StatusOr<InstallResult> InstallIfDifferent(SshSession& session,
                                           const std::string& local,
                                           const std::string& remote,
                                           Seconds timeout = 300);

}  // namespace gs

#endif  // GSRT_ADAPTERS_SSH_SSH_REMOTE_H_
