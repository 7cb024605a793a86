// gsrt-sim's command line (docs/experiments.md): the arguments parsed into
// a SimCommand, and a SimCommand run into rows of figures. The program's
// main only joins the two.
//
// Exit codes: 0 done; 1 some task did not finish; 2 bad command line or
// input file.
#ifndef GSRT_SIM_EXPERIMENTS_SIM_CLI_H_
#define GSRT_SIM_EXPERIMENTS_SIM_CLI_H_

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <variant>
#include <vector>

#include "runtime/base/status.h"
#include "sim/experiments/sim_experiments.h"
#include "sim/experiments/sim_reliability.h"
#include "sim/runner/sim_report.h"

namespace gs {

enum SimExit {
  kSimDone = 0,
  kSimIncomplete = 1,  // some task did not finish
  kSimBadInput = 2,    // command line, input file or a value in it
};

// Failures are kept as typed (HOST@TIME[-UNTIL]) until the run, which
// reports a malformed one.

// `gsrt-sim etc FILE`: a Braun ETC instance as a bag.
struct SimEtcArgs {
  std::string file;
  std::string policy = "mct";
  std::vector<std::string> fails;
  bool paper003 = false;  // add paper 003's failures, timed
};

// `gsrt-sim dag FILE...`: STG graphs; one row per rewind mode.
struct SimDagArgs {
  std::vector<std::string> files;
  DagOptions options;              // hosts, policy, ccr, bandwidth, latency
  std::string rewind = "gtp-c-r";  // or "all"
  std::vector<std::string> fails;
};

// `gsrt-sim bot`: a bag of tasks; one row per policy label ("wqr-ft/3":
// the policy and its replication threshold).
struct SimBotArgs {
  BotOptions options;  // all but policy, threshold, failures and seed
  std::vector<std::string> policies{"mct"};
  std::vector<std::string> fails;
};

// `gsrt-sim volatile`: paper 002; one row per policy.
struct SimVolatileArgs {
  VolatileOptions options;  // all but policy and seed
  std::vector<std::string> policies{"ip", "ie", "iy", "iay"};
};

// `gsrt-sim reliability`: paper 004. Table 1 recomputed from a history
// that rank-blind runs filled, then one row per policy, each run starting
// from its own copy of that history.
struct SimReliabilityArgs {
  ReliabilityOptions options;  // all but seed
  std::vector<std::string> policies{"grank", "mct", "met"};
  std::string history;  // keep the history in this file; "" = a temporary one
};

struct SimCommand {
  std::variant<SimEtcArgs, SimDagArgs, SimBotArgs, SimVolatileArgs,
               SimReliabilityArgs>
      experiment;
  uint64_t seed = 1;
  int reps = 1;  // runs with seeds seed..seed+reps-1, rows are their means
  bool json = false;
};

// Parses `args` (without argv[0]) into `command`. Returns the exit code
// when gsrt-sim must stop (help: 0; a mistake: 2, told on `err`), nullopt
// to go on.
std::optional<int> ParseSimArgs(const std::vector<std::string>& args,
                                SimCommand* command, std::ostream& out,
                                std::ostream& err);

struct SimTable {
  std::vector<SimRow> rows;
  bool complete = true;  // every task of every run finished
  // Printed before the rows (paper 004's table 1), under its title.
  std::string preface_title;
  std::vector<SimRow> preface;
};

// Runs the experiment; InvalidArgument (or the loader's error) for bad
// input.
StatusOr<SimTable> RunSimExperiment(const SimCommand& command);

// Runs it and prints the table (or JSON) on `out`, errors on `err`;
// returns the exit code.
int RunSimCommand(const SimCommand& command, std::ostream& out,
                  std::ostream& err);

}  // namespace gs

#endif  // GSRT_SIM_EXPERIMENTS_SIM_CLI_H_
