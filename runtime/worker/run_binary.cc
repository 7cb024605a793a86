#include "runtime/worker/run_binary.h"

#include <fcntl.h>
#include <linux/close_range.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <string_view>
#include <vector>

#include "runtime/base/shell_quote.h"

namespace gs {
namespace {

// How much of the program's standard error a failure message keeps.
constexpr size_t kErrorTail = 2048;
constexpr size_t kTailLines = 8;

template <typename T>
std::string Shortest(T value) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  return ec == std::errc() ? std::string(buf, end) : std::to_string(value);
}

bool IsIdentChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_';
}

// `word` with each `{name}` of a parameter replaced by its value.
std::string Expand(std::string_view word, const gs_operation& op,
                   const gs_arg* args) {
  std::string out;
  size_t i = 0;
  while (i < word.size()) {
    size_t close = i + 1;
    if (word[i] == '{') {
      while (close < word.size() && IsIdentChar(word[close])) ++close;
    }
    if (word[i] == '{' && close < word.size() && word[close] == '}' &&
        close > i + 1) {
      std::string_view name = word.substr(i + 1, close - i - 1);
      int k = 0;
      while (k < op.num_params && name != op.params[k].name) ++k;
      if (k < op.num_params) {
        out += BinaryArgText(op.params[k], args[k]);
        i = close + 1;
        continue;
      }
    }
    out += word[i++];
  }
  return out;
}

// The last lines of `text`, each on a line of its own, indented.
std::string LastLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = text.substr(start, nl - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.empty()) lines.push_back(line);
    start = nl + 1;
  }
  std::string out;
  size_t first = lines.size() > kTailLines ? lines.size() - kTailLines : 0;
  for (size_t i = first; i < lines.size(); ++i) {
    out += "\n  ";
    out += lines[i];
  }
  return out;
}

std::string TailOfFile(const char* path) {
  int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "";
  off_t size = ::lseek(fd, 0, SEEK_END);
  off_t from = size > static_cast<off_t>(kErrorTail)
                   ? size - static_cast<off_t>(kErrorTail)
                   : 0;
  std::string tail(static_cast<size_t>(size - from), '\0');
  ssize_t n = ::pread(fd, tail.data(), tail.size(), from);
  ::close(fd);
  tail.resize(n > 0 ? static_cast<size_t>(n) : 0);
  return tail;
}

// What the child tells the parent before exec when something fails.
struct ChildError {
  int stage;  // 0: exec, 1: stdin, 2: stdout, 3: stderr
  int err;
};

[[noreturn]] void ChildFail(int pipe_fd, int stage) {
  ChildError e{stage, errno};
  [[maybe_unused]] ssize_t n = ::write(pipe_fd, &e, sizeof e);
  ::_exit(127);
}

bool OpenOnto(const char* path, int flags, int target) {
  int fd = ::open(path, flags | O_CLOEXEC, 0666);
  if (fd < 0) return false;
  bool ok = ::dup2(fd, target) == target;  // dup2 clears FD_CLOEXEC
  ::close(fd);
  return ok;
}

// In the forked child: streams, a death signal, exec. Only async-signal-
// safe calls (the worker may have threads of the user's libraries).
[[noreturn]] void ExecChild(const gs_binary& b, const gs_operation& op,
                            const gs_arg* args, char* const* argv, pid_t parent,
                            int status_pipe, int err_pipe) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(127);
  const char* in = b.stdin_param >= 0 ? args[b.stdin_param].str : "/dev/null";
  if (!OpenOnto(in, O_RDONLY, STDIN_FILENO)) ChildFail(status_pipe, 1);
  auto output = [&](int param, int target, int stage) {
    if (param < 0) return;
    int flags = O_WRONLY | O_CREAT |
                (op.params[param].dir == GS_DIR_INOUT ? O_APPEND : O_TRUNC);
    if (!OpenOnto(args[param].str, flags, target))
      ChildFail(status_pipe, stage);
  };
  output(b.stdout_param, STDOUT_FILENO, 2);
  output(b.stderr_param, STDERR_FILENO, 3);
  if (b.stderr_param < 0 && ::dup2(err_pipe, STDERR_FILENO) < 0)
    ChildFail(status_pipe, 3);
  // The worker's own descriptors (its socket to the adapter) stay behind.
  ::close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
  ::execvp(argv[0], argv);
  ChildFail(status_pipe, 0);
}

std::string Describe(int status) {
  if (WIFEXITED(status)) {
    return "exited with status " + std::to_string(WEXITSTATUS(status));
  }
  if (WIFSIGNALED(status)) {
    const char* name = sigabbrev_np(WTERMSIG(status));
    return std::string("was killed by SIG") + (name ? name : "?");
  }
  return "ended oddly (wait status " + std::to_string(status) + ")";
}

}  // namespace

std::string BinaryArgText(const gs_param_desc& param, const gs_arg& arg) {
  switch (param.type) {
    case GS_TYPE_FILE:
    case GS_TYPE_STRING:
      return arg.str ? arg.str : "";
    case GS_TYPE_CHAR:
      return std::string(1, static_cast<char>(arg.i));
    case GS_TYPE_BOOLEAN:
      return arg.i ? "true" : "false";
    case GS_TYPE_FLOAT:
      return Shortest(static_cast<float>(arg.d));
    case GS_TYPE_DOUBLE:
      return Shortest(arg.d);
    default:
      return std::to_string(arg.i);
  }
}

std::vector<std::string> BinaryArgv(const gs_binary& b, const gs_operation& op,
                                    const gs_arg* args) {
  std::vector<std::string> argv = {b.program};
  if (b.args != nullptr) {
    for (int i = 0; i < b.num_args; ++i) {
      argv.push_back(Expand(b.args[i], op, args));
    }
    return argv;
  }
  for (int k = 0; k < op.num_params; ++k) {
    if (k == b.stdin_param || k == b.stdout_param || k == b.stderr_param)
      continue;
    argv.push_back(BinaryArgText(op.params[k], args[k]));
  }
  return argv;
}

Status RunBinary(const gs_binary& b, const gs_operation& op,
                 const gs_arg* args) {
  std::vector<std::string> words = BinaryArgv(b, op, args);
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  auto shown = ShellCommandLine(words);
  const std::string what =
      "program " + (shown.ok() ? *shown : std::string(b.program));

  int status_pipe[2], err_pipe[2] = {-1, -1};
  if (::pipe2(status_pipe, O_CLOEXEC) != 0) {
    return Status::FromErrno("cannot start " + what, errno);
  }
  if (b.stderr_param < 0 && ::pipe2(err_pipe, O_CLOEXEC) != 0) {
    int err = errno;
    ::close(status_pipe[0]);
    ::close(status_pipe[1]);
    return Status::FromErrno("cannot start " + what, err);
  }
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid == 0) {
    ExecChild(b, op, args, argv.data(), parent, status_pipe[1], err_pipe[1]);
  }
  const int fork_errno = errno;
  ::close(status_pipe[1]);
  if (err_pipe[1] >= 0) ::close(err_pipe[1]);
  if (pid < 0) {
    ::close(status_pipe[0]);
    if (err_pipe[0] >= 0) ::close(err_pipe[0]);
    return Status::FromErrno("cannot start " + what, fork_errno);
  }
  // Its standard error goes on to the job's, and its end into the message.
  std::string tail;
  if (err_pipe[0] >= 0) {
    char buf[4096];
    while (true) {
      ssize_t n = ::read(err_pipe[0], buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      for (ssize_t done = 0; done < n;) {
        ssize_t w = ::write(STDERR_FILENO, buf + done, n - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) break;
        done += w;
      }
      tail.append(buf, n);
      if (tail.size() > 2 * kErrorTail) tail.erase(0, tail.size() - kErrorTail);
    }
    ::close(err_pipe[0]);
  }
  ChildError child{};
  ssize_t got;
  do {
    got = ::read(status_pipe[0], &child, sizeof child);
  } while (got < 0 && errno == EINTR);
  ::close(status_pipe[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      return Status::FromErrno("lost the exit status of " + what, errno);
    }
  }
  if (got == static_cast<ssize_t>(sizeof child)) {
    static const char* const kStage[] = {"cannot run", "cannot open stdin for",
                                         "cannot open stdout for",
                                         "cannot open stderr for"};
    std::string message = std::string(kStage[child.stage & 3]) + " " + what +
                          ": " + std::strerror(child.err);
    if (child.stage == 0 && child.err == ENOENT) {
      message +=
          "; install it on the host (or in its setup's PATH), or give its "
          "full path in @Binary(binary=...)";
    }
    return Status::FailedPrecondition(message);
  }
  if (WIFEXITED(status)) {
    const int code = WEXITSTATUS(status);
    if (b.num_success == 0) return Status::Ok();
    for (int i = 0; i < b.num_success; ++i) {
      if (b.success[i] == code) return Status::Ok();
    }
  }
  if (b.stderr_param >= 0) tail = TailOfFile(args[b.stderr_param].str);
  std::string message = what + " " + Describe(status);
  if (WIFEXITED(status) && b.num_success > 0) {
    std::string codes;
    for (int i = 0; i < b.num_success; ++i) {
      codes += (i ? "," : "") + std::to_string(b.success[i]);
    }
    message += " (success: " + codes + ")";
  }
  std::string last = LastLines(tail);
  if (!last.empty()) message += "; its standard error ended with:" + last;
  return Status::FailedPrecondition(message);
}

}  // namespace gs

extern "C" int gs_run_binary(const gs_binary* binary, const gs_operation* op,
                             const gs_arg* args, char* error,
                             size_t error_size) {
  gs::Status s = gs::RunBinary(*binary, *op, args);
  if (s.ok()) return 0;
  if (error != nullptr && error_size > 0) {
    const std::string& m = s.message();
    size_t n = std::min(m.size(), error_size - 1);
    std::memcpy(error, m.data(), n);
    error[n] = '\0';
  }
  return 1;
}
