// Runs a batch system's commands for one host on this machine (blocking,
// each bounded by a timeout) and turns their failures into messages that
// name the host, the command and what to do.
#ifndef GSRT_ADAPTERS_BATCH_BATCH_COMMANDS_H_
#define GSRT_ADAPTERS_BATCH_BATCH_COMMANDS_H_

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "adapters/batch/batch_system.h"
#include "adapters/batch/via_ssh.h"
#include "runtime/base/process_spawn.h"
#include "runtime/base/status.h"
#include "runtime/jobs/host_config.h"

namespace gs {

class BatchCommands {
 public:
  // `where` is the host's place in the config file ("gsrt.yaml:12:5: "),
  // prefixed to messages about its keys; "" when unknown.
  BatchCommands(std::string host_name, std::unique_ptr<BatchSystem> system,
                BatchConfig config, std::string where);

  // Runs the commands through `runner` (a login node, `via`) instead of
  // on this machine.
  void set_runner(CommandRunner runner) { runner_ = std::move(runner); }

  const BatchSystem& system() const { return *system_; }
  const BatchConfig& config() const { return config_; }
  const std::string& host_name() const { return host_; }

  // Programs in PATH, the system reachable, the partition known, and the
  // submit options accepted (validated without queueing where the system
  // can, with `probe_script` as the script). Returns the largest job array
  // to submit (1 when arrays are not used).
  StatusOr<int> Check(const std::string& probe_script);
  // When the validating submission of the last Check said a job of the
  // host's size would start (Slurm's `sbatch --test-only`), in seconds
  // since the epoch; nullopt when it said nothing.
  std::optional<Seconds> checked_start() const { return checked_start_; }

  // Queues `job`; its batch id.
  StatusOr<std::string> Submit(const BatchSubmission& job);
  // Cancels the jobs (errors are returned, e.g. for ids already gone).
  Status Cancel(const std::vector<std::string>& ids);
  // The jobs named `name` still queued or running: id -> state.
  StatusOr<std::map<std::string, std::string>> List(const std::string& name);
  // The system's estimated start of the pending jobs named `name`: batch
  // id -> seconds since the epoch (empty when it estimates nothing).
  StatusOr<std::map<std::string, Seconds>> Starts(const std::string& name);

  // Runs argv (argv[0] looked up in PATH) at most `timeout` seconds; a
  // non-zero exit (other than `also_fine`) is an error naming the command
  // and its stderr.
  StatusOr<ProgramOutput> Run(const std::vector<std::string>& argv,
                              Seconds timeout = 30,
                              std::function<bool(int)> also_fine = nullptr);

 private:
  std::string Host() const { return "host '" + host_ + "'"; }

  std::string host_;
  std::unique_ptr<BatchSystem> system_;
  std::optional<Seconds> checked_start_;
  BatchConfig config_;
  std::string where_;
  CommandRunner runner_;
};

// The queue's listing (batch id -> state) of each job name.
using QueueListings =
    std::map<std::string, StatusOr<std::map<std::string, std::string>>>;
// Lists each of `job_names` once (a name given twice is listed once).
QueueListings ListByJobName(BatchCommands& commands,
                            const std::vector<std::string>& job_names);

// The first lines of a command's stderr (or stdout), trimmed, for
// messages.
std::string FirstLines(const std::string& text, int lines = 2);

// argv as one line of shell words, for messages.
std::string CommandText(const std::vector<std::string>& argv);

}  // namespace gs

#endif  // GSRT_ADAPTERS_BATCH_BATCH_COMMANDS_H_
