// Running a test's action as an unprivileged user. Root reads and writes
// past any permission bits, so a test of a permission error proves nothing
// when the tests run as root (as CI does); there, the action runs in a
// forked child that has become `nobody`. Header-only and needing nothing of
// gsrt, so that tests linking no gsrt library (stubgen's) can use it.
#ifndef GSRT_TESTS_SUPPORT_UNPRIVILEGED_H_
#define GSRT_TESTS_SUPPORT_UNPRIVILEGED_H_

#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <functional>
#include <string>

namespace gs {

struct UnprivilegedRun {
  bool ran = false;     // the action returned
  std::string result;   // what it returned
  std::string failure;  // when !ran: why (fork, dropping root, crash, hang)
};

namespace unprivileged_internal {

// A hung action is killed (SIGALRM) after this long.
inline constexpr unsigned kChildSeconds = 60;

struct Ids {
  uid_t uid;
  gid_t gid;
};

// nobody's ids; 65534 where the name is unknown.
inline Ids Nobody() {
  const passwd* pw = ::getpwnam("nobody");
  if (pw == nullptr) return {65534, 65534};
  return {pw->pw_uid, pw->pw_gid};
}

inline void WriteAll(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

[[noreturn]] inline void Fail(int fd, const std::string& what) {
  WriteAll(fd, what);
  ::_exit(2);
}

// The child's side: drops root for good, runs `action` and sends back what
// it returned.
[[noreturn]] inline void RunChild(int fd, Ids ids,
                                  const std::function<std::string()>& action) {
  ::alarm(kChildSeconds);
  // Groups first: once the uid is not 0 they can no longer be changed.
  if (::setgroups(0, nullptr) != 0) {
    Fail(fd, std::string("setgroups: ") + std::strerror(errno));
  }
  if (::setgid(ids.gid) != 0) {
    Fail(fd, std::string("setgid: ") + std::strerror(errno));
  }
  if (::setuid(ids.uid) != 0) {
    Fail(fd, std::string("setuid: ") + std::strerror(errno));
  }
  if (::geteuid() == 0 || ::setuid(0) == 0) {
    Fail(fd, "the child is still root or can become root again");
  }
  std::string result;
  try {
    result = action();
  } catch (const std::exception& e) {
    Fail(fd, std::string("the action threw: ") + e.what());
  } catch (...) {
    Fail(fd, "the action threw");
  }
  WriteAll(fd, result);
  ::_exit(0);
}

}  // namespace unprivileged_internal

// Runs `action` and returns what it returned. As root it runs in a forked
// child that has become nobody (no supplementary groups), and the result
// comes back over a pipe; the child is killed if it takes over a minute.
// Otherwise it runs in this process, as the test did before. In the child
// gtest assertions would count for the child only: `action` reports through
// its result, and the test asserts on that.
inline UnprivilegedRun RunAsUnprivileged(
    const std::function<std::string()>& action) {
  namespace internal = unprivileged_internal;
  UnprivilegedRun run;
  if (::geteuid() != 0) {
    run.result = action();
    run.ran = true;
    return run;
  }
  // Looked up before the fork: a forked child should not load NSS modules.
  const internal::Ids ids = internal::Nobody();
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    run.failure = std::string("pipe: ") + std::strerror(errno);
    return run;
  }
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    internal::RunChild(fds[1], ids, action);
  }
  ::close(fds[1]);
  if (pid < 0) {
    run.failure = std::string("fork: ") + std::strerror(errno);
    ::close(fds[0]);
    return run;
  }
  // Until EOF: the child's exit (or death) closes its end.
  std::string text;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buf, static_cast<size_t>(n));
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      run.failure = std::string("waitpid: ") + std::strerror(errno);
      return run;
    }
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    run.ran = true;
    run.result = text;
  } else if (WIFSIGNALED(status)) {
    run.failure = "the unprivileged child died of signal " +
                  std::to_string(WTERMSIG(status));
    if (WTERMSIG(status) == SIGALRM) {
      run.failure +=
          " (it ran past " + std::to_string(internal::kChildSeconds) + " s)";
    }
  } else {
    run.failure = "the unprivileged child exited with " +
                  std::to_string(WEXITSTATUS(status)) + ": " + text;
  }
  return run;
}

// Makes `dir` (a test's own temporary directory) belong to the user
// RunAsUnprivileged runs as, as a non-root test's directory belongs to its
// user, and checks that that user can use it: "" when it can, else why not.
// Does nothing when not root.
inline std::string GiveToUnprivileged(const std::string& dir) {
  if (::geteuid() != 0) return "";
  const unprivileged_internal::Ids ids = unprivileged_internal::Nobody();
  if (::chown(dir.c_str(), ids.uid, ids.gid) != 0) {
    return "chown " + dir + ": " + std::strerror(errno);
  }
  UnprivilegedRun probe = RunAsUnprivileged([&dir] {
    if (::access(dir.c_str(), R_OK | W_OK | X_OK) == 0) return std::string();
    return std::string(std::strerror(errno));
  });
  if (!probe.ran) return probe.failure;
  if (!probe.result.empty()) {
    // Typically a TMPDIR under a directory only root may search.
    return "nobody cannot use " + dir + " (" + probe.result +
           "): can others search every directory above it?";
  }
  return "";
}

}  // namespace gs

#endif  // GSRT_TESTS_SUPPORT_UNPRIVILEGED_H_
