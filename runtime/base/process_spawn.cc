#include "runtime/base/process_spawn.h"

#include <fcntl.h>  // O_* for the child's stdout/stderr
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

extern char** environ;

namespace gs {

namespace {

// RAII for the two posix_spawn attribute objects.
struct SpawnSetup {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  SpawnSetup() {
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attr);
  }
  ~SpawnSetup() {
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&actions);
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;
};

int Configure(const SpawnRequest& req, SpawnSetup& s) {
  const int flags = O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW;
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  // Networking code in the master often ignores SIGPIPE; workers should not
  // inherit that.
  sigaddset(&defaults, SIGPIPE);
  // Each step returns 0 or an errno; the first failure stops the chain.
  const int steps[] = {
      posix_spawn_file_actions_adddup2(&s.actions, req.devnull_fd, 0),
      posix_spawn_file_actions_addchdir_np(&s.actions, req.cwd.c_str()),
      posix_spawn_file_actions_addopen(&s.actions, 1, req.stdout_name, flags,
                                       0600),
      posix_spawn_file_actions_addopen(&s.actions, 2, req.stderr_name, flags,
                                       0600),
      // Whatever the master holds without O_CLOEXEC (sockets of libraries)
      // must not leak into workers.
      posix_spawn_file_actions_addclosefrom_np(&s.actions, 3),
      posix_spawnattr_setsigmask(&s.attr, &none),
      posix_spawnattr_setsigdefault(&s.attr, &defaults),
      posix_spawnattr_setpgroup(&s.attr, 0),
      posix_spawnattr_setflags(&s.attr, POSIX_SPAWN_SETSIGMASK |
                                            POSIX_SPAWN_SETSIGDEF |
                                            POSIX_SPAWN_SETPGROUP),
  };
  for (int err : steps) {
    if (err != 0) return err;
  }
  return 0;
}

}  // namespace

StatusOr<SpawnedProcess> SpawnProcess(const SpawnRequest& req) {
  const std::vector<std::string>& args = *req.argv;
  // execve wants char* const[]; the strings outlive the call.
  std::vector<char*> argv;
  argv.reserve(args.size() + 1);
  for (const std::string& a : args) {
    argv.push_back(const_cast<char*>(a.c_str()));
  }
  argv.push_back(nullptr);

  SpawnSetup setup;
  int err = Configure(req, setup);
  SpawnedProcess proc;
  if (!err) {
    err = posix_spawn(&proc.pid, argv[0], &setup.actions, &setup.attr,
                      argv.data(), environ);
  }
  if (err) {
    return Status::FromErrno("cannot start '" + args[0] + "'", err);
  }
  // The child cannot be reaped before we wait for it, so its pid cannot be
  // reused and pidfd_open cannot pick another process. pidfds are
  // close-on-exec from birth.
  proc.pidfd = static_cast<int>(::syscall(SYS_pidfd_open, proc.pid, 0));
  if (proc.pidfd < 0) {
    err = errno;
    ::kill(proc.pid, SIGKILL);
    ::waitpid(proc.pid, nullptr, 0);
    return Status::FromErrno("pidfd_open (needs Linux 5.3 or later)", err);
  }
  return proc;
}

}  // namespace gs
