// `gsrt testbed start|stop|status`: hosts to try gsrt on one machine (sshd
// hosts on 127.0.0.2, ... and a one-node Slurm) and the gsrt.yaml naming
// them. It runs testbed.sh, installed in share/gsrt/testbed (the source
// tree's tests/testbed when gsrt runs from its build tree), which starts
// them (README.md, "Try hosts on one machine").
#ifndef GSRT_RUNTIME_INSPECT_TESTBED_CLI_H_
#define GSRT_RUNTIME_INSPECT_TESTBED_CLI_H_

#include <optional>
#include <ostream>
#include <string>

namespace CLI {
class App;
}  // namespace CLI

namespace gs {

struct TestbedArgs {
  std::optional<int> ssh;  // default: 2, or 0 with --slurm
  bool slurm = false;
  std::string dir = "gsrt-testbed";
  CLI::App* start = nullptr;
  CLI::App* stop = nullptr;
  CLI::App* status = nullptr;
};

// Adds `testbed` and its subcommands to `app`; returns `testbed`.
CLI::App* AddTestbedCommand(CLI::App& app, TestbedArgs* a);

// Runs the parsed subcommand through testbed.sh, its output going straight
// to this program's; returns its exit code (1 when it cannot be run).
int RunTestbed(const TestbedArgs& a, std::ostream& err);

// testbed.sh for the program at `self` (its path), or "" when none is
// found: `self`'s directory + GSRT_TESTBED_RELATIVE, else, for a program
// in the build tree, the source tree's.
std::string FindTestbedScript(const std::string& self);

}  // namespace gs

#endif  // GSRT_RUNTIME_INSPECT_TESTBED_CLI_H_
