// Runs a shell command from a test and gives its output (test code only):
// the tests' own look at a real server (squeue, ps), never gsrt's way of
// running programs.
#ifndef GSRT_TESTS_SUPPORT_SHELL_COMMAND_H_
#define GSRT_TESTS_SUPPORT_SHELL_COMMAND_H_

#include <stdio.h>
#include <sys/wait.h>

#include <array>
#include <string>
#include <utility>

namespace gs::testing {

// Runs `command` with sh, stdout and stderr together; {exit status, output}.
inline std::pair<int, std::string> Shell(const std::string& command) {
  FILE* p = ::popen((command + " 2>&1").c_str(), "r");
  if (p == nullptr) return {-1, "popen failed"};
  std::string out;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0)
    out.append(buf.data(), n);
  const int status = ::pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

// Shell's output without its trailing newlines and blanks.
inline std::string ShellOutput(const std::string& command) {
  std::string out = Shell(command).second;
  while (!out.empty() && (out.back() == '\n' || out.back() == ' '))
    out.pop_back();
  return out;
}

}  // namespace gs::testing

#endif  // GSRT_TESTS_SUPPORT_SHELL_COMMAND_H_
