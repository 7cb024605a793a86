// The gsstubgen command: `gsstubgen [-o OUTDIR] FILE.idl`. Kept apart from
// main() so tests run it in-process with their own streams: parsing the
// arguments into options, and generating from the options.
#ifndef GSRT_STUBGEN_GSSTUBGEN_CLI_H_
#define GSRT_STUBGEN_GSSTUBGEN_CLI_H_

#include <optional>
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

struct GsstubgenOptions {
  std::string out_dir = ".";
  std::string idl_path;
};

// Parses `args` (without argv[0]) with CLI11 into `options`. Writes
// --help/--version text to `out` and command-line errors to `err`; returns
// the exit code when gsstubgen must stop there, nullopt to go on.
std::optional<int> ParseGsstubgenArgs(const std::vector<std::string>& args,
                                      GsstubgenOptions* options,
                                      std::ostream& out, std::ostream& err);

// Reads the IDL and writes the three files, or writes nothing and reports
// why on `err`. Returns the exit code.
int GenerateStubs(const GsstubgenOptions& options, std::ostream& err);

// Both, as main() does.
int RunGsstubgen(const std::vector<std::string>& args, std::ostream& out,
                 std::ostream& err);

}  // namespace gs

#endif  // GSRT_STUBGEN_GSSTUBGEN_CLI_H_
