// What differs between batch systems: their command lines and the text
// they print. Pure functions of configuration and output, no I/O, so the
// parsing is tested on captured output; BatchCommands (batch_commands.h)
// runs them.
#ifndef GSRT_ADAPTERS_BATCH_BATCH_SYSTEM_H_
#define GSRT_ADAPTERS_BATCH_BATCH_SYSTEM_H_

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/jobs/host_config.h"

namespace gs {

// One submission: a script, run once or as an array of `array` elements
// numbered 0..array-1.
struct BatchSubmission {
  std::string name;    // job name (the queue listing is filtered by it)
  std::string script;  // absolute path of the script to run
  // Where the job's stdout and stderr go; for an array, element i writes
  // output + "." + i.
  std::string output;
  int array = 0;  // 0: a single job
  // What each element's gsrt job holds (its operation's @Constraints); the
  // submission asks for at least this many CPUs and MiB besides the host's
  // cpus_per_task and mem. 0: nothing beyond them.
  int cpus = 0;
  int64_t mem_mb = 0;
  // GPUs each element asks the queue for (Slurm `--gres=gpu:k`, PBS
  // `:gpus=k`); the queue names them in the job's CUDA_VISIBLE_DEVICES.
  int gpus = 0;
  // An MPI job: `nodes` nodes with `cpus` / `nodes` tasks (ranks) on each
  // (Slurm --nodes --ntasks-per-node, PBS nodes=k:ppn=P) instead of one
  // task of `cpus` CPUs; 0: not an MPI job.
  int nodes = 0;
  int TasksPerNode() const { return nodes > 0 ? std::max(1, cpus / nodes) : 0; }
};

class BatchSystem {
 public:
  virtual ~BatchSystem() = default;

  // "slurm" or "pbs".
  virtual std::string_view kind() const = 0;
  // The programs the adapter needs (checked in PATH at Connect).
  virtual std::vector<std::string> Programs() const = 0;
  // Whether job arrays are used (and how large they may be).
  virtual bool SupportsArrays() const = 0;

  // A command that fails when the batch system cannot be reached and, for
  // Slurm, prints the configuration (MaxArraySize).
  virtual std::vector<std::string> CheckArgv() const = 0;
  // The largest array the cluster takes, from CheckArgv's output.
  virtual std::optional<int> ParseMaxArraySize(std::string_view out) const = 0;
  // A command that fails when `partition` does not exist; empty when the
  // system has no such check.
  virtual std::vector<std::string> PartitionArgv(
      const std::string& partition) const = 0;

  // Submits; `test_only` asks the system to validate without queueing
  // (empty argv when it cannot).
  virtual std::vector<std::string> SubmitArgv(const BatchConfig& config,
                                              const BatchSubmission& job,
                                              bool test_only) const = 0;
  // The batch id from the submit command's stdout.
  virtual StatusOr<std::string> ParseSubmitted(std::string_view out) const = 0;
  // The id of element `index` of array `id`, as the listing shows it.
  virtual std::string ElementId(const std::string& id, int index) const = 0;

  // Lists this user's jobs named `name` that are still queued or running.
  virtual std::vector<std::string> ListArgv(const std::string& name) const = 0;
  // Batch id (array elements by ElementId) -> state word, for every job
  // the listing shows as queued, running or ending.
  virtual std::map<std::string, std::string> ParseList(
      std::string_view out) const = 0;
  // Whether the listing command exiting with `code` (not 0) means only
  // that nothing is queued.
  virtual bool ListedNothing(int code) const { return false; }

  virtual std::vector<std::string> CancelArgv(
      const std::vector<std::string>& ids) const = 0;

  // The system's own estimate of when this user's pending jobs named
  // `name` start (Slurm: `squeue --start`); empty argv when it has none.
  virtual std::vector<std::string> StartsArgv(const std::string& name) const {
    return {};
  }
  // Batch id -> estimated start (seconds since the epoch) of each job the
  // listing gives a time for ("N/A" gives none).
  virtual std::map<std::string, Seconds> ParseStarts(
      std::string_view out) const {
    return {};
  }
  // The start a validating submission (SubmitArgv with test_only)
  // promises, from its output (stdout and stderr); nullopt when none.
  virtual std::optional<Seconds> ParseTestOnlyStart(
      std::string_view out) const {
    return std::nullopt;
  }
};

// Slurm's "2026-12-07T16:30:00" (local time) -> seconds since the epoch;
// nullopt for "N/A", "Unknown" or anything else.
std::optional<Seconds> ParseSlurmTime(std::string_view text);

std::unique_ptr<BatchSystem> MakeSlurmSystem();
std::unique_ptr<BatchSystem> MakePbsSystem();

// "H:MM:SS" (hours may exceed 24), for walltime options.
std::string FormatPbsWalltime(Seconds seconds);

}  // namespace gs

#endif  // GSRT_ADAPTERS_BATCH_BATCH_SYSTEM_H_
