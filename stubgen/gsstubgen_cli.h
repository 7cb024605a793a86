// The gsstubgen command: `gsstubgen [-o OUTDIR] FILE.idl`. Kept apart from
// main() so tests can run it in-process with their own streams.
#ifndef GSRT_STUBGEN_GSSTUBGEN_CLI_H_
#define GSRT_STUBGEN_GSSTUBGEN_CLI_H_

#include <ostream>
#include <string>
#include <vector>

namespace gs {

// Exit codes of gsstubgen.
enum GsstubgenExit {
  kGsstubgenOk = 0,
  kGsstubgenError = 1,  // malformed IDL, unreadable file, unwritable dir
  kGsstubgenUsage = 2,  // bad command line
};

// `args` excludes argv[0]. Writes --help/--version text to `out` and
// diagnostics to `err`; returns the exit code.
int RunGsstubgen(const std::vector<std::string>& args, std::ostream& out,
                 std::ostream& err);

}  // namespace gs

#endif  // GSRT_STUBGEN_GSSTUBGEN_CLI_H_
