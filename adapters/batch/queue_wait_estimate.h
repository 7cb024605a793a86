// How long a batch job submitted now will wait in its queue, from what
// there is to go on, best first:
//   1. the batch system's own estimate (Slurm's backfill planner: the
//      start `squeue --start` shows for this run's pending jobs, or the
//      one `sbatch --test-only` gives for a job of the host's size);
//   2. the history of waits of jobs of the same size (nodes, cores,
//      walltime), this run's and earlier runs';
//   3. the history of every wait of the host, whatever the size.
// Pure: no I/O, no clock; the adapter gives what it has seen.
#ifndef GSRT_ADAPTERS_BATCH_QUEUE_WAIT_ESTIMATE_H_
#define GSRT_ADAPTERS_BATCH_QUEUE_WAIT_ESTIMATE_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/clock.h"
#include "runtime/jobs/host_config.h"

namespace gs {

// The size of a batch job, as the queue sees it.
struct JobShape {
  int cores = 1;  // per node
  int nodes = 1;
  Seconds walltime = 0;  // its time limit; 0: the partition's default
  bool operator==(const JobShape&) const = default;
};

// The size of a one-node batch job of a host with `config`: the more of
// `cores` (its operation's) and the host's cpus_per_task, its walltime.
JobShape BatchJobShape(const BatchConfig& config, int cores = 0);

// One recorded wait and the size of the job that waited.
struct SizedWait {
  JobShape shape;
  Seconds wait = 0;
};

enum class WaitBasis {
  kNone,           // nothing known: 0
  kBatchSystem,    // the batch system's own estimate
  kHistoryBySize,  // the waits of jobs of the same size
  kHistory,        // the waits of every job of the host
};

struct WaitEstimate {
  Seconds seconds = 0;
  WaitBasis basis = WaitBasis::kNone;
  int samples = 0;  // waits behind a history estimate

  // "slurm estimate", "history of 4 jobs of this size", "history of 7
  // jobs of other sizes", "unknown".
  std::string Describe(std::string_view system = "slurm") const;
};

// Whether a wait of a job of shape `a` says something of one of shape `b`:
// the same number of nodes, and cores and walltime each within a factor of
// two (a queue orders jobs by what they ask for, and backfill lets small,
// short jobs through first). A walltime of 0 matches only 0.
bool SameSize(const JobShape& a, const JobShape& b);

// From the waits, newest first: the mean of the newest `limit` of the same
// size as `shape`; else of the newest `limit` of any size; else kNone.
WaitEstimate EstimateFromHistory(const std::vector<SizedWait>& newest_first,
                                 const JobShape& shape, int limit = 20);

// The estimate: the batch system's start time `system_start` (seconds
// since the epoch, as `now`) when there is one, else `from_history`
// (EstimateFromHistory's).
WaitEstimate EstimateQueueWait(std::optional<Seconds> system_start, Seconds now,
                               const WaitEstimate& from_history);

}  // namespace gs

#endif  // GSRT_ADAPTERS_BATCH_QUEUE_WAIT_ESTIMATE_H_
