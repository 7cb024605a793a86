// How the local adapter starts worker processes in its host's environment
// (gsrt.yaml's `env`, `setup` and `launcher`): the setup runs once, when the
// host connects, and the environment it leaves is every worker's; the
// launcher goes before each worker's command line. Inside an agent the
// setup has already run (before the agent) and only the launcher is left.
#ifndef GSRT_ADAPTERS_LOCAL_WORKER_LAUNCH_H_
#define GSRT_ADAPTERS_LOCAL_WORKER_LAUNCH_H_

#include <string>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/jobs/host_config.h"

namespace gs {

struct WorkerLaunch {
  // Put before every worker's argv; [0] is an absolute path. Empty: none.
  std::vector<std::string> launcher;
  // "NAME=value": the workers' environment before a job's own variables.
  // Empty: the master's.
  std::vector<std::string> environment;

  // `worker_argv` behind the launcher.
  std::vector<std::string> Argv(
      const std::vector<std::string>& worker_argv) const;
  // For SpawnRequest::base_env: null when the master's environment is used.
  const std::vector<std::string>* BaseEnvironment() const {
    return environment.empty() ? nullptr : &environment;
  }
};

// Runs `environment`'s setup (at most kSetupTimeout) in a login shell, reads
// the environment it leaves (through a file in `scratch_dir`) and finds the
// launcher in that PATH. A failure names the host, the failing line and
// what the setup printed, or the launcher that was not found.
StatusOr<WorkerLaunch> PrepareWorkerLaunch(const std::string& host_name,
                                           const HostEnvironment& environment,
                                           const std::string& scratch_dir);

}  // namespace gs

#endif  // GSRT_ADAPTERS_LOCAL_WORKER_LAUNCH_H_
