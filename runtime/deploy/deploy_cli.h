// gsdeploy's command line (docs/gsdeploy.md): the arguments parsed into a
// DeployCommand, and a DeployCommand run against the configuration, the
// hosts and the history. The program's main only joins the two.
#ifndef GSRT_RUNTIME_DEPLOY_DEPLOY_CLI_H_
#define GSRT_RUNTIME_DEPLOY_DEPLOY_CLI_H_

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <variant>
#include <vector>

#include "runtime/config/config.h"

namespace gs {

enum DeployExit {
  kDeployOk = 0,
  kDeployNotReady = 1,  // setup: some host is not ready
  kDeployUsage = 2,     // bad command line or configuration; setup: a host
                        // it does not support (sim; as configured)
  kDeployHistory = 3,   // the history file is unusable
};

// What every subcommand takes: the configuration file ("" finds it as the
// master does) and, where it applies, one host ("" all of them).
struct DeployCommon {
  std::string config;
  std::string host;
};

struct DeployProbeArgs {
  DeployCommon common;
  double timeout = 30;
  std::string transfer = "4M";
  int parallel = 8;
};

struct DeployRankArgs {
  DeployCommon common;
  std::string op;
  std::string mem;
  std::string volume;
  std::optional<double> alpha, beta, mu, gamma;
  bool distrust_first = false;
  bool json = false;
};

struct DeployHistoryArgs {
  DeployCommon common;
  std::string since;
  size_t limit = 100;
};

struct DeploySetupArgs {
  DeployCommon common;
  std::string app;
  double timeout = 60;
};

using DeployCommand = std::variant<DeployProbeArgs, DeployRankArgs,
                                   DeployHistoryArgs, DeploySetupArgs>;

// Parses `args` (without argv[0]) into `command`. Returns the exit code
// when gsdeploy must stop (help: 0; a mistake: 2, told on `err`), nullopt
// to go on.
std::optional<int> ParseDeployArgs(const std::vector<std::string>& args,
                                   DeployCommand* command, std::ostream& out,
                                   std::ostream& err);

// Runs the command: reports on `out`, errors as "gsdeploy: ..." on `err`.
// `env` resolves the configuration (the process's, in gsdeploy). Returns
// the exit code.
int RunDeployCommand(const DeployCommand& command, const ConfigEnv& env,
                     std::ostream& out, std::ostream& err);

}  // namespace gs

#endif  // GSRT_RUNTIME_DEPLOY_DEPLOY_CLI_H_
