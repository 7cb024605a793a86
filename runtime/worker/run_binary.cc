#include "runtime/worker/run_binary.h"

#include <fcntl.h>
#include <linux/close_range.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <span>
#include <string_view>
#include <vector>

#include "runtime/base/joined.h"
#include "runtime/base/shell_quote.h"
#include "runtime/base/worker_failure.h"

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
    // Rules of dashes (mpirun boxes its reports in them) say nothing.
    if (line.find_first_not_of('-') != std::string_view::npos)
      lines.push_back(line);
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

// The end of file `path` from offset `start` on, at most kErrorTail bytes.
std::string TailOfFile(const char* path, off_t start) {
  int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "";
  off_t size = ::lseek(fd, 0, SEEK_END);
  off_t from = std::max(start, size - static_cast<off_t>(kErrorTail));
  if (from >= size) {
    ::close(fd);
    return "";
  }
  std::string tail(static_cast<size_t>(size - from), '\0');
  ssize_t n = ::pread(fd, tail.data(), tail.size(), from);
  ::close(fd);
  tail.resize(n > 0 ? static_cast<size_t>(n) : 0);
  return tail;
}

// What the child leaves the parent (vfork: shared memory) when something
// fails before its exec.
struct ChildError {
  int stage;  // -1: none; 0: exec, 1: stdin, 2: stdout, 3: stderr
  int err;
};

[[noreturn]] void ChildFail(volatile ChildError* error, int stage) {
  error->err = errno;
  error->stage = stage;
  ::_exit(127);
}

bool OpenOnto(const char* path, int flags, int target) {
  int fd = ::open(path, flags | O_CLOEXEC, 0666);
  if (fd < 0) return false;
  bool ok = ::dup2(fd, target) == target;  // dup2 clears FD_CLOEXEC
  ::close(fd);
  return ok;
}

// In the vforked child: streams, a death signal, exec. System calls only:
// it runs on the worker's memory.
[[noreturn]] void ExecChild(const gs_binary& b, const gs_operation& op,
                            const gs_arg* args, char* const* argv, pid_t parent,
                            volatile ChildError* error) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(127);
  const char* in = b.stdin_param >= 0 ? args[b.stdin_param].str : "/dev/null";
  if (!OpenOnto(in, O_RDONLY, STDIN_FILENO)) ChildFail(error, 1);
  const int outputs[2][3] = {{b.stdout_param, STDOUT_FILENO, 2},
                             {b.stderr_param, STDERR_FILENO, 3}};
  for (const auto& [param, target, stage] : outputs) {
    if (param < 0) continue;
    int flags = O_WRONLY | O_CREAT |
                (op.params[param].dir == GS_DIR_INOUT ? O_APPEND : O_TRUNC);
    if (!OpenOnto(args[param].str, flags, target)) ChildFail(error, stage);
  }
  // The worker's own descriptors (its socket to the adapter) stay behind.
  ::close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
  ::execvp(argv[0], argv);
  ChildFail(error, 0);
}

// vfork, as posix_spawn does: the child only makes system calls until it
// execs, so no page of the worker is copied per program, and the parent
// resumes after the exec or the child's exit, with `error` as it left it.
// A function of its own: nothing of the caller's frame can be clobbered.
[[gnu::noinline]] pid_t Spawn(const gs_binary& b, const gs_operation& op,
                              const gs_arg* args, char* const* argv,
                              volatile ChildError* error) {
  const pid_t parent = ::getpid();
  const pid_t pid = ::vfork();
  if (pid == 0) ExecChild(b, op, args, argv, parent, error);
  return pid;
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

bool MpiLostANode(std::string_view text) {
  static constexpr std::string_view kSigns[] = {
      "lost communication with a remote daemon",
      "daemon has unexpectedly failed",
      "unable to reliably start one or more daemons",
      "Node failure on",
      "due to node failure",
  };
  for (std::string_view sign : kSigns) {
    if (text.find(sign) != std::string_view::npos) return true;
  }
  return false;
}

std::string MpiFailureReport(std::string_view text) {
  auto lower = [](std::string_view line) {
    std::string out(line);
    for (char& c : out) c = static_cast<char>(std::tolower(c));
    return out;
  };
  size_t end = text.size();
  while (end > 0) {
    size_t start = text.rfind('\n', end - 1);
    start = start == std::string_view::npos ? 0 : start + 1;
    std::string_view line = text.substr(start, end - start);
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r'))
      line.remove_suffix(1);
    const std::string l = lower(line);
    const bool names_rank = l.find("rank") != std::string::npos ||
                            l.find(": task ") != std::string::npos;
    const bool says_end = l.find("signal") != std::string::npos ||
                          l.find("exit") != std::string::npos ||
                          l.find("abort") != std::string::npos ||
                          l.find("killed") != std::string::npos ||
                          l.find("termination") != std::string::npos;
    if (names_rank && says_end) return std::string(line);
    end = start == 0 ? 0 : start - 1;
  }
  return "";
}

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

MpiSite MpiSite::FromEnvironment() {
  MpiSite site;
  site.in_slurm_job = std::getenv("SLURM_JOB_ID") != nullptr;
  if (const char* tasks = std::getenv("SLURM_NTASKS")) {
    site.slurm_tasks = std::atoi(tasks);
  }
  if (const char* nodes = std::getenv("GSRT_MPI_NODES")) {
    site.gang = ParseMpiNodes(nodes);
  }
  return site;
}

std::vector<std::pair<std::string, int>> ParseMpiNodes(std::string_view text) {
  std::vector<std::pair<std::string, int>> nodes;
  for (bool more = !text.empty(); more;) {
    const size_t comma = text.find(',');
    std::string_view one = text.substr(0, comma);
    more = comma != std::string_view::npos;
    text = more ? text.substr(comma + 1) : "";
    const size_t colon = one.rfind(':');
    if (colon == 0 || colon == std::string_view::npos) return {};
    int ranks = 0;
    for (char c : one.substr(colon + 1)) {
      if (c < '0' || c > '9' || ranks > 1 << 20) return {};
      ranks = ranks * 10 + (c - '0');
    }
    if (ranks < 1) return {};
    nodes.emplace_back(std::string(one.substr(0, colon)), ranks);
  }
  return nodes;
}

namespace {

// The gang's runner options (MpiArgv): srun's node list, or the --host
// list of mpirun and mpiexec.
void GangOptions(const std::string& runner, const std::string& n,
                 const std::string& per_node, const MpiSite& site,
                 std::vector<std::string>* argv) {
  std::vector<std::string> names, hosts;
  for (const auto& [node, ranks] : site.gang) {
    names.push_back(node);
    hosts.push_back(node + ":" + std::to_string(ranks));
  }
  if (runner == "srun") {
    argv->insert(argv->end(),
                 {"--overlap", "--nodes=" + std::to_string(site.gang.size()),
                  "--nodelist=" + Joined(names, ","), "--ntasks=" + n,
                  "--ntasks-per-node=" + per_node, "--cpus-per-task=1",
                  "--kill-on-bad-exit=1"});
    return;
  }
  argv->insert(argv->end(), {"-n", n});
  if (runner == "mpirun") argv->insert(argv->end(), {"--bind-to", "none"});
  argv->insert(argv->end(), {"--host", Joined(hosts, ",")});
  if (runner == "mpirun" && site.in_slurm_job && site.gang.size() > 1) {
    // The hosts are the gang (not the agent's one-task step). Open MPI
    // starts a daemon on each other node with one srun, without a node
    // list: left to itself Slurm may put one on this node, whose ranks
    // then take this node's shared memory names. So the srun is given the
    // other nodes, and shares the CPUs the agents' steps hold.
    argv->insert(
        argv->end(),
        {"--mca", "ras", "^slurm", "--mca", "plm_slurm_args",
         "--overlap --nodelist=" + Joined(std::span(names).subspan(1), ",")});
  }
}

}  // namespace

std::vector<std::string> MpiArgv(const gs_binary& b,
                                 std::vector<std::string> program_argv,
                                 const MpiSite& site) {
  const std::string runner = b.mpi_runner ? b.mpi_runner : "mpirun";
  const std::string n = std::to_string(std::max(1, b.mpi_processes));
  const std::string per_node = std::to_string(
      b.mpi_per_node > 0 ? b.mpi_per_node : std::max(1, b.mpi_processes));
  std::vector<std::string> argv = {runner};
  if (!site.gang.empty()) {
    GangOptions(runner, n, per_node, site, &argv);
  } else if (runner == "srun") {
    argv.insert(argv.end(), {"--ntasks=" + n, "--ntasks-per-node=" + per_node,
                             "--kill-on-bad-exit=1"});
  } else if (runner == "mpirun") {
    argv.insert(argv.end(), {"-n", n, "--bind-to", "none"});
    if (site.in_slurm_job && site.slurm_tasks >= std::max(1, b.mpi_processes)) {
      argv.insert(argv.end(), {"--map-by", "ppr:" + per_node + ":node"});
    } else {
      argv.insert(argv.end(), {"--host", "localhost:" + n});
      if (site.in_slurm_job)
        argv.insert(argv.end(), {"--mca", "ras", "^slurm"});
    }
  } else {
    argv.insert(argv.end(), {"-n", n});
  }
  argv.insert(argv.end(), std::make_move_iterator(program_argv.begin()),
              std::make_move_iterator(program_argv.end()));
  return argv;
}

Status RunBinary(const gs_binary& b, const gs_operation& op,
                 const gs_arg* args) {
  std::vector<std::string> words = BinaryArgv(b, op, args);
  if (b.mpi_processes > 0) {
    words = MpiArgv(b, std::move(words), MpiSite::FromEnvironment());
  }
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  auto shown = ShellCommandLine(words);
  const std::string what =
      std::string(b.mpi_processes > 0 ? "MPI job " : "program ") +
      (shown.ok() ? *shown : std::string(b.program));

  // Where the job's standard error stands now: what the program adds to it
  // goes into a failure's message.
  struct stat err_before {};
  const bool err_is_file =
      ::fstat(STDERR_FILENO, &err_before) == 0 && S_ISREG(err_before.st_mode);
  volatile ChildError child{-1, 0};
  const pid_t pid = Spawn(b, op, args, argv.data(), &child);
  if (pid < 0) return Status::FromErrno("cannot start " + what, errno);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      return Status::FromErrno("lost the exit status of " + what, errno);
    }
  }
  if (child.stage >= 0) {
    static const char* const kStage[] = {"cannot run", "cannot open stdin for",
                                         "cannot open stdout for",
                                         "cannot open stderr for"};
    std::string message = std::string(kStage[child.stage & 3]) + " " + what +
                          ": " + std::strerror(child.err);
    if (child.stage == 0 && child.err == ENOENT) {
      message += b.mpi_processes > 0
                     ? "; install the MPI runner on the host (Debian: "
                       "openmpi-bin; or load its module in the host's "
                       "setup), or name another in @MPI(runner=...)"
                     : "; install it on the host (or in its setup's PATH), or "
                       "give its full path in @Binary(binary=...)";
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
  std::string tail;
  if (b.stderr_param >= 0) {
    tail = TailOfFile(args[b.stderr_param].str, 0);
  } else if (err_is_file) {
    tail = TailOfFile("/proc/self/fd/2", err_before.st_size);
  }
  std::string message = what + " " + Describe(status);
  // First, so that it survives the message being cut to one line.
  if (b.mpi_processes > 0 && MpiLostANode(tail)) {
    message = std::string(kMpiNodeLost) + ": " + message;
  }
  if (WIFEXITED(status) && b.num_success > 0) {
    std::string codes;
    for (int i = 0; i < b.num_success; ++i) {
      codes += (i ? "," : "") + std::to_string(b.success[i]);
    }
    message += " (success: " + codes + ")";
  }
  if (b.mpi_processes > 0) {
    const std::string report = MpiFailureReport(tail);
    if (!report.empty()) message += ": " + report;
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
