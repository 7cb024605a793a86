// `gsrt`: what the history says about past runs (docs/observing.md).
// Subcommands runs, show, tasks, trace, dot; each takes --history and
// --json (dot and trace write their own formats); and testbed
// (testbed_cli.h). The program's main only calls RunGsrtCommand.
//
// Exit codes: 0 done; 2 bad command line or configuration; 3 the history
// is unusable or has no such run (testbed: its own, testbed_cli.h).
#ifndef GSRT_RUNTIME_INSPECT_INSPECT_CLI_H_
#define GSRT_RUNTIME_INSPECT_INSPECT_CLI_H_

#include <ostream>
#include <string>
#include <vector>

#include "runtime/config/config.h"

namespace gs {

inline constexpr int kGsrtHistoryError = 3;

int RunGsrtCommand(const std::vector<std::string>& args, const ConfigEnv& env,
                   std::ostream& out, std::ostream& err);

}  // namespace gs

#endif  // GSRT_RUNTIME_INSPECT_INSPECT_CLI_H_
