// Both operations write one `key=value` line each ("-" when unset):
//   index=I           the call's index
//   input=LINE        the input file's first line
//   var=V             GSRT_ENVTEST_VAR (the test's module sets it)
//   hostvar=V         GSRT_ENVTEST_HOSTVAR (the host's `env` sets it)
//   tool=STATUS OUT   exit status and first line of `envtest-tool`, found
//                     on PATH (the module prepends its bin directory)
//   pidns=NS          readlink /proc/self/ns/pid (another one in a sandbox
//                     started with --unshare-pid)
//   cwd=DIR           where it ran (which says on which host)
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "envtest.h"

namespace {

std::string FirstLine(FILE* f) {
  char buf[4096];
  if (!f || !std::fgets(buf, sizeof buf, f)) return "-";
  std::string s = buf;
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s.empty() ? "-" : s;
}

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : "-";
}

void Probe(const char* input, int index, const char* report) {
  FILE* in = std::fopen(input, "r");
  std::string input_line = FirstLine(in);
  if (in) std::fclose(in);
  // popen's shell looks the tool up on PATH; 127 when it is not there.
  FILE* tool = popen("envtest-tool 2>/dev/null", "r");
  std::string tool_line = FirstLine(tool);
  int tool_status = 127;
  if (tool) {
    int st = pclose(tool);
    tool_status = (st != -1 && WIFEXITED(st)) ? WEXITSTATUS(st) : 128;
  }
  char ns[256];
  ssize_t n = readlink("/proc/self/ns/pid", ns, sizeof ns - 1);
  ns[n > 0 ? n : 0] = '\0';
  char cwd[4096];
  if (!getcwd(cwd, sizeof cwd)) std::exit(1);
  FILE* f = std::fopen(report, "w");
  if (!f) std::exit(1);
  std::fprintf(f,
               "index=%d\ninput=%s\nvar=%s\nhostvar=%s\ntool=%d %s\n"
               "pidns=%s\ncwd=%s\n",
               index, input_line.c_str(), Env("GSRT_ENVTEST_VAR").c_str(),
               Env("GSRT_ENVTEST_HOSTVAR").c_str(), tool_status,
               tool_line.c_str(), *ns ? ns : "-", cwd);
  if (std::fclose(f) != 0) std::exit(1);
}

}  // namespace

void probe(const char* input, int index, const char* report) {
  Probe(input, index, report);
}
void probe_other(const char* input, int index, const char* report) {
  Probe(input, index, report);
}
