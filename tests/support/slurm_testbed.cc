#include "tests/support/slurm_testbed.h"

#include <cstdio>
#include <cstdlib>

#include "runtime/base/shell_quote.h"

namespace gs {

std::string SlurmTestbedDir() { return GSRT_SLURM_DIR; }

const std::string& EnsureSlurmTestbed() {
  static const std::string* error = [] {
    const std::string command = "bash " + ShellQuote(GSRT_SLURM_SCRIPT) +
                                " start " + ShellQuote(GSRT_SLURM_DIR) +
                                " 2>&1";
    std::string output;
    int rc = -1;
    if (FILE* p = ::popen(command.c_str(), "r")) {
      char buf[4096];
      size_t n;
      while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) output.append(buf, n);
      rc = ::pclose(p);
    }
    if (rc != 0) {
      return new std::string("cannot start the Slurm testbed (" + command +
                             "): " + output);
    }
    ::setenv("SLURM_CONF",
             (std::string(GSRT_SLURM_DIR) + "/etc/slurm.conf").c_str(), 1);
    return new std::string();
  }();
  return *error;
}

}  // namespace gs
