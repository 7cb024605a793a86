// `via: LOGIN`: a batch host's commands (sbatch, squeue, scancel, ...) run
// on a login node through one ssh session of the ssh layer, opened on
// first use and again after a loss. Each command is one exec channel,
// its argv quoted for the remote shell, with the batch host's `env`
// variables set in front of it (`env NAME=VALUE ... sbatch ...`).
//
// Only the commands move: job files, exit records and the pilots' token
// are still written by the master, so the master must see the cluster's
// file system at the same paths (the batch host's `workdir` absolute).
#ifndef GSRT_ADAPTERS_BATCH_VIA_SSH_H_
#define GSRT_ADAPTERS_BATCH_VIA_SSH_H_

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "runtime/base/clock.h"
#include "runtime/base/process_spawn.h"
#include "runtime/base/status.h"
#include "runtime/jobs/host_config.h"

namespace boost::asio {
class io_context;
}  // namespace boost::asio

namespace gs {

// Runs argv somewhere, bounded by a timeout; the exit code and output of
// the command (a non-zero exit is a result, not an error).
using CommandRunner = std::function<StatusOr<ProgramOutput>(
    const std::vector<std::string>& argv, Seconds timeout)>;

// A runner through an ssh session to `login` (an ssh host of the config).
CommandRunner MakeViaRunner(boost::asio::io_context& io, Clock& clock,
                            HostConfig login,
                            std::map<std::string, std::string> env);

}  // namespace gs

#endif  // GSRT_ADAPTERS_BATCH_VIA_SSH_H_
