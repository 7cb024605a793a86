#include "runtime/worker/persistent_loop.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/messages.h"
#include "runtime/base/serve_protocol.h"
#include "runtime/worker/worker_main.h"

extern char** environ;

namespace gs {

namespace {

// Reads exactly `size` bytes; false at EOF or on an error. `*eof` tells a
// clean EOF before the first byte from a truncated read.
bool ReadFully(int fd, char* data, size_t size, bool* eof) {
  size_t done = 0;
  *eof = false;
  while (done < size) {
    ssize_t n = ::read(fd, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      *eof = n == 0 && done == 0;
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return true;
}

bool WriteFully(int fd, const char* data, size_t size) {
  while (size > 0) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

// The worker's own messages (never a job's): whole lines on the stderr it
// started with, through a descriptor of its own once set, because
// descriptor 2 belongs to the job while one runs. Single-threaded, like
// the worker.
class SavedStderr : public MessageSink {
 public:
  void set_fd(int fd) { fd_ = fd; }
  void Say(MessageKind, std::string_view text) override {
    WriteFully(fd_, text.data(), text.size());
  }
  void Progress(std::string_view) override {}  // a worker draws none

 private:
  int fd_ = STDERR_FILENO;
};

int64_t Micros(const timeval& tv) {
  return static_cast<int64_t>(tv.tv_sec) * 1000000 + tv.tv_usec;
}

class Server {
 public:
  Server(const char* program, const char* name, const gs_worker_entry* entries,
         int n, bool fork_per_job)
      : program_(program),
        name_(name),
        entries_(entries),
        n_(n),
        fork_per_job_(fork_per_job) {}

  int Main(const char* parent) {
    pid_t expected = 0;
    if (std::from_chars(parent, parent + std::strlen(parent), expected).ec !=
            std::errc() ||
        expected < 0) {
      return Fail("serve needs the PARENT_PID of the process feeding it");
    }
    // A hung job must not outlive a master killed with SIGKILL; the parent
    // check closes the race with a parent that died before the prctl. 0:
    // started under a launcher, whose process is the parent.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (expected > 0 && ::getppid() != expected) return 0;
    channel_ = ::fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3);
    err_ = ::fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
    if (err_ >= 0) messages_.set_fd(err_);
    null_ = ::open("/dev/null", O_RDWR | O_CLOEXEC);
    if (channel_ < 0 || err_ < 0 || null_ < 0) {
      return Fail(std::string("cannot set up its descriptors: ") +
                  std::strerror(errno));
    }
    ::dup2(null_, STDIN_FILENO);
    ::dup2(null_, STDOUT_FILENO);
    for (char** e = environ; *e != nullptr; ++e) start_env_.emplace_back(*e);
    if (fork_per_job_ && Threads() > 1) {
      // A child of a multi-threaded process has only the forking thread:
      // a lock another thread held stays locked in it forever.
      return Fail(std::to_string(Threads()) +
                  " threads run after loading (a library's static "
                  "initializer started them): cannot fork jobs safely; set "
                  "runtime.workers: process");
    }

    std::string payload;
    for (;;) {
      char header[kServeHeaderBytes];
      bool eof = false;
      if (!ReadFully(channel_, header, sizeof header, &eof)) {
        return eof ? kWorkerOk : Fail("request cut short");
      }
      auto length = DecodeServeHeader(header);
      if (!length.ok()) return Fail(length.status().message());
      payload.resize(*length);
      if (!ReadFully(channel_, payload.data(), payload.size(), &eof)) {
        return Fail("request cut short");
      }
      ServeRequest request;
      Status decoded = DecodeServeRequest(payload, &request);
      if (!decoded.ok()) return Fail(decoded.message());

      ServeReply reply;
      if (fork_per_job_) {
        ForkOne(request, &reply);
      } else {
        reply.code = RunOne(request, &reply);
        rusage usage{};
        ::getrusage(RUSAGE_SELF, &usage);
        reply.user_us = Micros(usage.ru_utime);
        reply.system_us = Micros(usage.ru_stime);
        reply.max_rss_kb = usage.ru_maxrss;
      }
      char bytes[kServeReplyBytes];
      EncodeServeReply(reply, bytes);
      if (!WriteFully(channel_, bytes, sizeof bytes)) return kWorkerOk;
    }
  }

  // A wrong command line.
  int Usage() {
    const std::string name = name_;
    messages_.Say(MessageKind::kError,
                  "gsrt-worker " + name + ": usage: " + name + "-worker " +
                      (fork_per_job_ ? kForkServerCommand : "serve") +
                      " PARENT_PID\n");
    return kWorkerBadCall;
  }

 private:
  int Fail(const std::string& message) {
    messages_.Say(MessageKind::kError, "gsrt-worker " + std::string(name_) +
                                           " serve: " + message + "\n");
    return kWorkerBadCall;
  }

  // The threads of this process (1 when /proc cannot tell).
  static int Threads() {
    DIR* dir = ::opendir("/proc/self/task");
    if (dir == nullptr) return 1;
    int n = 0;
    while (const dirent* entry = ::readdir(dir)) {
      if (entry->d_name[0] != '.') ++n;
    }
    ::closedir(dir);
    return n > 0 ? n : 1;
  }

  // The start-up environment plus the job's entries: whatever an earlier
  // job set or removed is undone.
  void ResetEnvironment(const std::vector<std::string>& job_env) {
    ::clearenv();
    auto set = [](const std::string& entry) {
      const size_t eq = entry.find('=');
      if (eq == std::string::npos || eq == 0) return;
      ::setenv(entry.substr(0, eq).c_str(), entry.c_str() + eq + 1, 1);
    };
    for (const std::string& e : start_env_) set(e);
    for (const std::string& e : job_env) set(e);
  }

  // Points fd at file `name` in the cwd, as process mode's spawn does.
  bool Redirect(int fd, const char* name) {
    int file = ::open(
        name, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (file < 0) return false;
    const bool ok = ::dup2(file, fd) == fd;
    ::close(file);
    return ok;
  }

  // The job's environment, cwd, stdout and stderr; false (after saying
  // why) when the sandbox cannot be used.
  bool Enter(const ServeRequest& request) {
    ResetEnvironment(request.env);
    if (::chdir(request.cwd.c_str()) != 0) {
      Fail("cannot enter '" + request.cwd + "': " + std::strerror(errno));
      return false;
    }
    if (!Redirect(STDOUT_FILENO, "stdout") ||
        !Redirect(STDERR_FILENO, "stderr")) {
      Fail("cannot create stdout/stderr in '" + request.cwd +
           "': " + std::strerror(errno));
      ::chdir("/");
      return false;
    }
    return true;
  }

  int Call(const ServeRequest& request) {
    std::vector<const char*> argv;
    argv.reserve(request.args.size() + 1);
    argv.push_back(program_);
    for (const std::string& a : request.args) argv.push_back(a.c_str());
    return RunWorker(static_cast<int>(argv.size()), argv.data(), name_,
                     entries_, n_, std::cout, std::cerr);
  }

  int RunOne(const ServeRequest& request, ServeReply* reply) {
    if (!Enter(request)) return kWorkerBadCall;
    ForgetResult(request);
    const int code = Call(request);
    // What the job printed belongs to its files, not to the next job's.
    std::cout.flush();
    std::cerr.flush();
    std::cout.clear();
    std::cerr.clear();
    std::fflush(nullptr);
    Inspect(request, reply);
    ::dup2(null_, STDOUT_FILENO);
    ::dup2(err_, STDERR_FILENO);
    // Holds no sandbox open between jobs.
    ::chdir("/");
    return code;
  }

  // The fork server (`fork-server`): the job runs in a child forked from this
  // process, which has loaded everything and run no user function, so that
  // every job starts as `run` would start it, without the exec and dynamic
  // linking. The child stays in this process group (a kill of the group for
  // a timeout reaches it) and dies with this process. The reply carries the
  // child's wait status (signals included) and the CPU time of all
  // children so far, as `serve` carries its own totals.
  void ForkOne(const ServeRequest& request, ServeReply* reply) {
    // Nothing buffered here may be written twice.
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    const pid_t server = ::getpid();
    ForgetResult(request);
    const pid_t child = ::fork();
    if (child == 0) {
      // fork() clears the parent-death signal: ask again, for this parent.
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (::getppid() != server) ::_exit(kWorkerBadCall);
      ::close(channel_);
      if (!Enter(request)) ::_exit(kWorkerBadCall);
      // The user's code sees descriptors 0-2 only, as after an exec.
      ::close(err_);
      ::close(null_);
      const int code = Call(request);
      std::cout.flush();
      // Static destructors and atexit handlers run, as when `run` returns.
      std::exit(code);
    }
    if (child < 0) {
      Fail(std::string("cannot fork a job: ") + std::strerror(errno));
      reply->code = kWorkerBadCall << 8;
    } else {
      int status = 0;
      rusage usage{};
      while (::wait4(child, &status, 0, &usage) < 0 && errno == EINTR) {
      }
      reply->code = status;
      reply->max_rss_kb = usage.ru_maxrss;
      Inspect(request, reply);
      children_user_us_ += Micros(usage.ru_utime);
      children_system_us_ += Micros(usage.ru_stime);
    }
    reply->user_us = children_user_us_;
    reply->system_us = children_system_us_;
  }

  // The request's result file (run OP RESULT_PATH ...), or null.
  static const char* ResultPath(const ServeRequest& request) {
    return request.args.size() > 2 ? request.args[2].c_str() : nullptr;
  }

  // An earlier job's result must not pass for this job's: its time is set
  // to 0, and a result file whose time is not 0 after the job was written
  // by it. (Removing it costs more: ext4 allocates a new inode for the
  // next, ~20 us here.)
  static void ForgetResult(const ServeRequest& request) {
    const char* result = ResultPath(request);
    if (result == nullptr) return;
    const timespec times[2] = {{0, UTIME_OMIT}, {0, 0}};
    ::utimensat(AT_FDCWD, result, times, 0);
  }

  // The sandbox as the job left it, reported so that the adapter (the
  // master, for local hosts) spends no system call on it.
  static void Inspect(const ServeRequest& request, ServeReply* reply) {
    auto size_of = [](const char* path, bool written_now) -> int64_t {
      struct stat st;
      if (::stat(path, &st) != 0) return -1;
      const bool stale = st.st_mtim.tv_sec == 0 && st.st_mtim.tv_nsec == 0;
      return written_now && stale ? -1 : st.st_size;
    };
    const char* result = ResultPath(request);
    reply->result_bytes = result != nullptr ? size_of(result, true) : -1;
    const std::string out = request.cwd + "/stdout";
    const std::string err = request.cwd + "/stderr";
    reply->stdout_bytes = std::max<int64_t>(0, size_of(out.c_str(), false));
    reply->stderr_bytes = std::max<int64_t>(0, size_of(err.c_str(), false));
    reply->other_files = OtherFiles(request.cwd);
  }

  // Regular files in `dir` besides stdout, stderr and result; -1 when it
  // holds anything that is not a regular file or cannot be read.
  static int32_t OtherFiles(const std::string& dir) {
    DIR* d = ::opendir(dir.c_str());
    if (d == nullptr) return -1;
    int32_t others = 0;
    while (const dirent* e = ::readdir(d)) {
      const std::string_view name = e->d_name;
      if (name == "." || name == "..") continue;
      if (e->d_type != DT_REG && e->d_type != DT_UNKNOWN) {
        others = -1;
        break;
      }
      others += name != "stdout" && name != "stderr" && name != "result";
    }
    ::closedir(d);
    return others;
  }

  const char* program_;
  const char* name_;
  const gs_worker_entry* entries_;
  int n_;
  bool fork_per_job_;
  int64_t children_user_us_ = 0;
  int64_t children_system_us_ = 0;
  int channel_ = -1;
  int err_ = -1;
  int null_ = -1;
  SavedStderr messages_;
  std::vector<std::string> start_env_;
};

}  // namespace

int ServeJobs(int argc, const char* const* argv, const char* interface_name,
              const gs_worker_entry* entries, int num_entries) {
  const bool fork_per_job =
      argc > 1 && std::strcmp(argv[1], kForkServerCommand) == 0;
  Server server(argc > 0 ? argv[0] : "worker", interface_name, entries,
                num_entries, fork_per_job);
  if (argc != 3) return server.Usage();
  return server.Main(argv[2]);
}

}  // namespace gs
