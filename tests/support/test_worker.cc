// gsrt_test_worker: a real worker program for adapter tests. It follows the
// worker contract `gsrt_test_worker run OP RESULT_PATH ARG...` with a few
// operations whose behaviour tests rely on. Kept free of iostreams and other
// static initialisation so that it starts about as fast as a C program.
//
//   noop                      writes an empty result
//   copy IN OUT               copies file IN to OUT
//   append INOUT TEXT         appends TEXT to file INOUT
//   echo TEXT OUT             writes TEXT to file OUT
//   add A B OUTSCALAR         result "A+B"; OUTSCALAR must be "" (placeholder)
//   fail CODE                 exits with CODE without writing a result
//   throws TEXT               exits 1 leaving TEXT as a thrown exception's
//                             message, as a generated worker does
//   echofail TEXT OUT CODE    writes OUT, then exits with CODE
//   sleep MS                  sleeps MS milliseconds, then succeeds
//   crash                     raises SIGSEGV
//   noout OUT                 exits 0 without writing OUT
//   noresult                  exits 0 without writing the result file
//   print OUTTEXT ERRTEXT     writes OUTTEXT to stdout, ERRTEXT to stderr
//   pwd                       result: the working directory
//   stdin                     result: how many bytes stdin held
//   scratch NAME              leaves a file NAME in the working directory
//   listcwd                   result: the working directory's entries,
//                             sorted, one per line
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "runtime/base/worker_failure.h"

namespace {

int Usage(const char* why) {
  std::fprintf(stderr, "gsrt_test_worker: %s\n", why);
  return 2;
}

bool WriteAll(int fd, const char* data, size_t size) {
  while (size > 0) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

bool WriteFile(const char* path, const std::string& text, bool append) {
  int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC);
  int fd = ::open(path, flags, 0644);
  if (fd < 0) return false;
  bool ok = WriteAll(fd, text.data(), text.size());
  return ::close(fd) == 0 && ok;
}

bool ReadFile(const char* path, std::string* text) {
  int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char buf[1 << 16];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) > 0) text->append(buf, n);
  ::close(fd);
  return n == 0;
}

int Fail(const char* what, const char* path) {
  std::fprintf(stderr, "gsrt_test_worker: %s '%s': %s\n", what, path,
               std::strerror(errno));
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4 || std::strcmp(argv[1], "run") != 0) {
    return Usage("usage: gsrt_test_worker run OP RESULT_PATH ARG...");
  }
  const std::string op = argv[2];
  const char* result = argv[3];
  char** args = argv + 4;
  const int nargs = argc - 4;
  auto need = [&](int n) { return nargs == n; };
  std::string results;  // one encoded value per line

  if (op == "noop" && need(0)) {
  } else if (op == "copy" && need(2)) {
    std::string data;
    if (!ReadFile(args[0], &data)) return Fail("cannot read", args[0]);
    if (!WriteFile(args[1], data, false)) return Fail("cannot write", args[1]);
  } else if (op == "append" && need(2)) {
    if (!WriteFile(args[0], args[1], true))
      return Fail("cannot write", args[0]);
  } else if (op == "echo" && need(2)) {
    if (!WriteFile(args[1], args[0], false))
      return Fail("cannot write", args[1]);
  } else if (op == "add" && need(3)) {
    if (args[2][0] != '\0')
      return Usage("add: out scalar placeholder not empty");
    results = std::to_string(std::atoll(args[0]) + std::atoll(args[1])) + "\n";
  } else if (op == "fail" && need(1)) {
    return std::atoi(args[0]);
  } else if (op == "throws" && need(1)) {
    if (!WriteFile(result, gs::EncodeThrown(args[0]), false)) {
      return Fail("cannot write", result);
    }
    return 1;
  } else if (op == "echofail" && need(3)) {
    if (!WriteFile(args[1], args[0], false))
      return Fail("cannot write", args[1]);
    return std::atoi(args[2]);
  } else if (op == "sleep" && need(1)) {
    long ms = std::atol(args[0]);
    timespec ts{ms / 1000, (ms % 1000) * 1000000L};
    while (::nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
  } else if (op == "printsleep" && need(2)) {
    // Says something, then hangs: what a timed-out job leaves.
    WriteAll(STDERR_FILENO, args[0], std::strlen(args[0]));
    long ms = std::atol(args[1]);
    timespec ts{ms / 1000, (ms % 1000) * 1000000L};
    while (::nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
  } else if (op == "crash" && need(0)) {
    ::signal(SIGSEGV, SIG_DFL);
    ::raise(SIGSEGV);
    return 3;
  } else if (op == "noout" && need(1)) {
  } else if (op == "noresult" && need(0)) {
    return 0;
  } else if (op == "print" && need(2)) {
    WriteAll(STDOUT_FILENO, args[0], std::strlen(args[0]));
    WriteAll(STDERR_FILENO, args[1], std::strlen(args[1]));
  } else if (op == "pwd" && need(0)) {
    char cwd[4096];
    if (::getcwd(cwd, sizeof cwd) == nullptr) return Fail("getcwd", ".");
    results = std::string(cwd) + "\n";
  } else if (op == "stdin" && need(0)) {
    std::string data;
    if (!ReadFile("/dev/stdin", &data)) return Fail("cannot read", "stdin");
    results = std::to_string(data.size()) + "\n";
  } else if (op == "scratch" && need(1)) {
    if (!WriteFile(args[0], "scratch", false))
      return Fail("cannot write", args[0]);
  } else if (op == "listcwd" && need(0)) {
    DIR* dir = ::opendir(".");
    if (dir == nullptr) return Fail("cannot list", ".");
    std::vector<std::string> names;
    while (const dirent* e = ::readdir(dir)) {
      if (std::strcmp(e->d_name, ".") != 0 &&
          std::strcmp(e->d_name, "..") != 0) {
        names.push_back(e->d_name);
      }
    }
    ::closedir(dir);
    std::sort(names.begin(), names.end());
    for (const std::string& name : names) results += name + "\n";
  } else {
    return Usage(("unknown operation or wrong argument count: " + op).c_str());
  }
  if (!WriteFile(result, results, false)) return Fail("cannot write", result);
  return 0;
}
