// `gsrt --version --verbose`: the version, what it was built with, and what
// each installed program needs of a machine's C and C++ runtimes, so that
// a site knows whether a build or a bundle fits its login and compute
// nodes before it runs anything (docs/install.md).
#ifndef GSRT_RUNTIME_INSPECT_VERSION_REPORT_H_
#define GSRT_RUNTIME_INSPECT_VERSION_REPORT_H_

#include <ostream>
#include <string>
#include <vector>

namespace gs {

// True for a command line asking for this report: --version and --verbose.
bool AsksVerboseVersion(const std::vector<std::string>& args);

// Writes the report. `self` is the running `gsrt` program's path; the
// agent is looked for in $GSRT_AGENT, beside it, then in the build tree.
void WriteVerboseVersion(const std::string& self, std::ostream& out);

}  // namespace gs

#endif  // GSRT_RUNTIME_INSPECT_VERSION_REPORT_H_
