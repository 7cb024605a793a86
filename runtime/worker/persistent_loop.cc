#include "runtime/worker/persistent_loop.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

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

int64_t Micros(const timeval& tv) {
  return static_cast<int64_t>(tv.tv_sec) * 1000000 + tv.tv_usec;
}

class Server {
 public:
  Server(const char* program, const char* name, const gs_worker_entry* entries,
         int n)
      : program_(program), name_(name), entries_(entries), n_(n) {}

  int Main(const char* parent) {
    pid_t expected = 0;
    if (std::from_chars(parent, parent + std::strlen(parent), expected).ec !=
            std::errc() ||
        expected <= 0) {
      return Fail("serve needs the PARENT_PID of the process feeding it");
    }
    // A hung job must not outlive a master killed with SIGKILL; the parent
    // check closes the race with a parent that died before the prctl.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != expected) return 0;
    channel_ = ::fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3);
    err_ = ::fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
    null_ = ::open("/dev/null", O_RDWR | O_CLOEXEC);
    if (channel_ < 0 || err_ < 0 || null_ < 0) {
      return Fail(std::string("cannot set up its descriptors: ") +
                  std::strerror(errno));
    }
    ::dup2(null_, STDIN_FILENO);
    ::dup2(null_, STDOUT_FILENO);
    for (char** e = environ; *e != nullptr; ++e) start_env_.emplace_back(*e);

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
      reply.code = RunOne(request);
      rusage usage{};
      ::getrusage(RUSAGE_SELF, &usage);
      reply.user_us = Micros(usage.ru_utime);
      reply.system_us = Micros(usage.ru_stime);
      reply.max_rss_kb = usage.ru_maxrss;
      char bytes[kServeReplyBytes];
      EncodeServeReply(reply, bytes);
      if (!WriteFully(channel_, bytes, sizeof bytes)) return kWorkerOk;
    }
  }

 private:
  int Fail(const std::string& message) {
    const std::string line =
        "gsrt-worker " + std::string(name_) + " serve: " + message + "\n";
    WriteFully(err_ >= 0 ? err_ : STDERR_FILENO, line.data(), line.size());
    return kWorkerBadCall;
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

  int RunOne(const ServeRequest& request) {
    ResetEnvironment(request.env);
    if (::chdir(request.cwd.c_str()) != 0) {
      return Fail("cannot enter '" + request.cwd +
                  "': " + std::strerror(errno));
    }
    if (!Redirect(STDOUT_FILENO, "stdout") ||
        !Redirect(STDERR_FILENO, "stderr")) {
      Fail("cannot create stdout/stderr in '" + request.cwd +
           "': " + std::strerror(errno));
      ::chdir("/");
      return kWorkerBadCall;
    }
    std::vector<const char*> argv;
    argv.reserve(request.args.size() + 1);
    argv.push_back(program_);
    for (const std::string& a : request.args) argv.push_back(a.c_str());
    const int code = RunWorker(static_cast<int>(argv.size()), argv.data(),
                               name_, entries_, n_, std::cout, std::cerr);
    // What the job printed belongs to its files, not to the next job's.
    std::cout.flush();
    std::cerr.flush();
    std::cout.clear();
    std::cerr.clear();
    std::fflush(nullptr);
    ::dup2(null_, STDOUT_FILENO);
    ::dup2(err_, STDERR_FILENO);
    // Holds no sandbox open between jobs.
    ::chdir("/");
    return code;
  }

  const char* program_;
  const char* name_;
  const gs_worker_entry* entries_;
  int n_;
  int channel_ = -1;
  int err_ = -1;
  int null_ = -1;
  std::vector<std::string> start_env_;
};

}  // namespace

int ServeJobs(int argc, const char* const* argv, const char* interface_name,
              const gs_worker_entry* entries, int num_entries) {
  Server server(argc > 0 ? argv[0] : "worker", interface_name, entries,
                num_entries);
  if (argc != 3) {
    std::fprintf(stderr, "gsrt-worker %s: usage: %s-worker serve PARENT_PID\n",
                 interface_name, interface_name);
    return kWorkerBadCall;
  }
  return server.Main(argv[2]);
}

}  // namespace gs
