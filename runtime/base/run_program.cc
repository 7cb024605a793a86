#include "runtime/base/run_program.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "runtime/base/asio_clock.h"
#include "runtime/base/process_spawn.h"

namespace gs {

namespace {

constexpr size_t kMaxKept = 64 << 10;

std::string ReadTail(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string text(std::istreambuf_iterator<char>(in), {});
  if (text.size() > kMaxKept) text.erase(0, text.size() - kMaxKept);
  return text;
}

// A private scratch directory for the child's stdout and stderr files,
// removed with them.
class Scratch {
 public:
  Scratch() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern =
        std::string(tmp && *tmp ? tmp : "/tmp") + "/gsdeploy-run-XXXXXX";
    if (::mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~Scratch() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace

StatusOr<ProgramOutput> RunProgram(const std::vector<std::string>& argv,
                                   Seconds timeout) {
  if (argv.empty() || argv[0].empty() || argv[0][0] != '/') {
    return Status::InvalidArgument("RunProgram needs an absolute program path");
  }
  Scratch scratch;
  if (scratch.path().empty()) {
    return Status::FromErrno("cannot create a scratch directory in $TMPDIR",
                             errno);
  }
  const int devnull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (devnull < 0) return Status::FromErrno("open /dev/null", errno);
  SpawnRequest req;
  req.argv = &argv;
  req.cwd = scratch.path();
  req.devnull_fd = devnull;
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
  out.out = ReadTail(scratch.path() + "/stdout");
  out.err = ReadTail(scratch.path() + "/stderr");
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
