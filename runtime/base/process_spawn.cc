#include "runtime/base/process_spawn.h"

#include <fcntl.h>  // O_* for the child's files
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/mman.h>  // memfd_create
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>
#include <string_view>

#include "runtime/base/asio_clock.h"

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

// 0 or an errno.
int AddStdio(posix_spawn_file_actions_t* actions, int target,
             const ChildStdio& stdio) {
  if (stdio.fd >= 0) {
    return posix_spawn_file_actions_adddup2(actions, stdio.fd, target);
  }
  if (stdio.file != nullptr) {
    const int flags =
        (target == 0 ? O_RDONLY : O_WRONLY | O_CREAT | O_TRUNC) | O_NOFOLLOW;
    return posix_spawn_file_actions_addopen(actions, target, stdio.file, flags,
                                            0600);
  }
  return 0;
}

int Configure(const SpawnRequest& req, SpawnSetup& s) {
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  // Networking code in the master often ignores SIGPIPE; children should
  // not inherit that.
  sigaddset(&defaults, SIGPIPE);
  short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
  if (req.own_process_group) flags |= POSIX_SPAWN_SETPGROUP;
  // The working directory first: files are opened relative to it.
  if (!req.cwd.empty()) {
    if (int err =
            posix_spawn_file_actions_addchdir_np(&s.actions, req.cwd.c_str())) {
      return err;
    }
  }
  // Each step returns 0 or an errno; the first failure stops the chain.
  const int steps[] = {
      AddStdio(&s.actions, 0, req.in),
      AddStdio(&s.actions, 1, req.out),
      AddStdio(&s.actions, 2, req.err),
      // Whatever the parent holds without O_CLOEXEC (sockets of libraries)
      // must not leak into children.
      posix_spawn_file_actions_addclosefrom_np(&s.actions, 3),
      posix_spawnattr_setsigmask(&s.attr, &none),
      posix_spawnattr_setsigdefault(&s.attr, &defaults),
      posix_spawnattr_setpgroup(&s.attr, 0),
      posix_spawnattr_setflags(&s.attr, flags),
  };
  for (int err : steps) {
    if (err != 0) return err;
  }
  return 0;
}

// `base` (null: the parent's environment) with `extra` added; an entry of
// `extra` replaces the one of the same name. Points into both (they outlive
// the spawn).
std::vector<char*> MergedEnvironment(const std::vector<std::string>* base,
                                     const std::vector<std::string>& extra) {
  auto name_of = [](std::string_view entry) {
    return entry.substr(0, entry.find('='));
  };
  std::vector<char*> envp;
  auto keep = [&](char* e) {
    const std::string_view name = name_of(e);
    bool replaced = false;
    for (const std::string& x : extra) replaced |= name_of(x) == name;
    if (!replaced) envp.push_back(e);
  };
  if (base != nullptr) {
    for (const std::string& e : *base) keep(const_cast<char*>(e.c_str()));
  } else {
    for (char** e = environ; *e != nullptr; ++e) keep(*e);
  }
  for (const std::string& x : extra)
    envp.push_back(const_cast<char*>(x.c_str()));
  envp.push_back(nullptr);
  return envp;
}

constexpr size_t kMaxKept = 64 << 10;

// The last kMaxKept bytes written to `fd`.
std::string ReadTail(int fd) {
  const off_t size = ::lseek(fd, 0, SEEK_END);
  if (size <= 0) return "";
  off_t at = size > static_cast<off_t>(kMaxKept)
                 ? size - static_cast<off_t>(kMaxKept)
                 : 0;
  std::string text(static_cast<size_t>(size - at), '\0');
  size_t got = 0;
  while (got < text.size()) {
    const ssize_t n = ::pread(fd, text.data() + got, text.size() - got, at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<size_t>(n);
    at += n;
  }
  text.resize(got);
  return text;
}

// An anonymous in-memory file for a child's stdout or stderr: nothing in
// $TMPDIR outlives a master killed while the child runs.
class MemFile {
 public:
  explicit MemFile(const char* name) : fd_(::memfd_create(name, MFD_CLOEXEC)) {}
  ~MemFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  MemFile(const MemFile&) = delete;
  MemFile& operator=(const MemFile&) = delete;
  int fd() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

StatusOr<SpawnedProcess> SpawnProcess(const SpawnRequest& req) {
  const std::vector<std::string>& args = *req.argv;
  if (args.empty() || args[0].empty()) {
    return Status::InvalidArgument("no program to start");
  }
  // execve wants char* const[]; the strings outlive the call.
  std::vector<char*> argv;
  argv.reserve(args.size() + 1);
  for (const std::string& a : args) {
    argv.push_back(const_cast<char*>(a.c_str()));
  }
  argv.push_back(nullptr);

  std::vector<char*> envp;
  static const std::vector<std::string> kNone;
  if ((req.env != nullptr && !req.env->empty()) || req.base_env != nullptr)
    envp = MergedEnvironment(req.base_env, req.env ? *req.env : kNone);

  SpawnSetup setup;
  int err = Configure(req, setup);
  SpawnedProcess proc;
  if (!err) {
    err = (req.search_path ? posix_spawnp : posix_spawn)(
        &proc.pid, argv[0], &setup.actions, &setup.attr, argv.data(),
        envp.empty() ? environ : envp.data());
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

std::string FindInPath(const std::string& program) {
  const char* path = std::getenv("PATH");
  return FindInPath(program, path ? path : "/usr/bin:/bin");
}

std::string FindInPath(const std::string& program, const std::string& path) {
  if (program.find('/') != std::string::npos) return program;
  std::istringstream dirs(path);
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (dir.empty()) continue;
    const std::string candidate = dir + "/" + program;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

StatusOr<ProgramOutput> RunProgram(const std::vector<std::string>& argv,
                                   Seconds timeout) {
  if (argv.empty() || argv[0].empty() || argv[0][0] != '/') {
    return Status::InvalidArgument("RunProgram needs an absolute program path");
  }
  MemFile out_file("stdout"), err_file("stderr");
  if (out_file.fd() < 0 || err_file.fd() < 0) {
    return Status::FromErrno("memfd_create for the output of " + argv[0],
                             errno);
  }
  const int devnull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (devnull < 0) return Status::FromErrno("open /dev/null", errno);
  SpawnRequest req;
  req.argv = &argv;
  // Not the caller's directory: a program may leave files where it runs
  // (sbatch makes it the batch job's default directory).
  const char* tmp = std::getenv("TMPDIR");
  req.cwd = tmp && *tmp ? tmp : "/tmp";
  req.in.fd = devnull;
  req.out.fd = out_file.fd();
  req.err.fd = err_file.fd();
  StatusOr<SpawnedProcess> proc = SpawnProcess(req);
  ::close(devnull);
  if (!proc.ok()) {
    return proc.status().WithContext("cannot start " + argv[0]);
  }

  boost::asio::io_context io;
  AsioClock clock(io);
  boost::asio::posix::stream_descriptor pidfd(io, proc->pidfd);
  bool exited = false, expired = false;
  pidfd.async_wait(boost::asio::posix::stream_descriptor::wait_read,
                   [&](const boost::system::error_code&) { exited = true; });
  std::unique_ptr<Timer> timer = clock.After(timeout, [&] {
    expired = true;
    ::kill(-proc->pid, SIGKILL);  // its process group: children go too
  });
  while (!exited) io.run_one();
  timer.reset();

  int status = 0;
  while (::waitpid(proc->pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (expired) {
    return Status::TimedOut("`" + argv[0] + "` did not finish within " +
                            std::to_string(static_cast<int>(timeout)) +
                            " s and was killed");
  }
  ProgramOutput out;
  if (WIFSIGNALED(status)) {
    out.signal = WTERMSIG(status);
  } else {
    out.exit_code = WEXITSTATUS(status);
  }
  out.out = ReadTail(out_file.fd());
  out.err = ReadTail(err_file.fd());
  return out;
}

std::string DescribeFailure(const std::vector<std::string>& argv,
                            const ProgramOutput& output) {
  std::string command;
  for (const std::string& a : argv) command += (command.empty() ? "" : " ") + a;
  std::string text = "`" + command + "` ";
  if (output.signal != 0) {
    text += "was killed by signal " + std::to_string(output.signal);
  } else {
    text += "exited with code " + std::to_string(output.exit_code);
  }
  std::string err = output.err;
  while (!err.empty() && (err.back() == '\n' || err.back() == ' ')) {
    err.pop_back();
  }
  if (const size_t nl = err.rfind('\n'); nl != std::string::npos) {
    err.erase(0, nl + 1);
  }
  if (!err.empty()) text += ": " + err;
  return text;
}

}  // namespace gs
