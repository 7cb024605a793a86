// The batch-queue adapters (`adapter: slurm` and `adapter: pbs`): what both
// modes need to know, and the factory the registry calls.
//
//   mode job:   every gsrt job is a batch job (job arrays for jobs that are
//               ready together); its fate comes from its exit record.
//   mode pilot: a few batch jobs run gsrt-agent, which connect back over
//               TCP with the run's token; jobs then flow as over ssh.
//
// The batch commands run on this machine; the nodes must see gsrt-agent,
// the worker and the host's workdir at the same paths (a shared file
// system, as on clusters), and, in pilot mode, reach the listen address.
#ifndef GSRT_ADAPTERS_BATCH_BATCH_ADAPTER_H_
#define GSRT_ADAPTERS_BATCH_BATCH_ADAPTER_H_

#include <memory>
#include <string>
#include <vector>

#include "adapters/adapter.h"
#include "adapters/batch/queue_wait_estimate.h"
#include "runtime/base/clock.h"
#include "runtime/jobs/host_config.h"
#include "runtime/jobs/worker_mode.h"

namespace boost::asio {
class io_context;
}  // namespace boost::asio

namespace gs {

struct BatchAdapterOptions {
  // The host: adapters.front() is kSlurm or kPbs; batch keys, slots,
  // workdir (absolute), shared_fs.
  HostConfig host;
  // The host's place in the config file ("gsrt.yaml:12:5: "), or "".
  std::string where;
  // gsrt-agent and the worker, as the nodes see them.
  std::string agent_program;
  std::string worker;
  // This host's queue waits in earlier runs, newest first (the history's;
  // the adapter reports new ones through TakeQueueWaits).
  std::vector<SizedWait> past_queue_waits;
  // Agent heartbeats (pilot mode); a pilot silent for 3 of them is lost.
  Seconds heartbeat = 5;
  // How the pilots' agents run jobs.
  WorkerMode workers = WorkerMode::kProcess;
  // Seconds between queue listings (squeue/qstat).
  Seconds poll_interval = 1;
  // Seconds between looks for exit records (job mode).
  Seconds record_interval = 0.2;
  // Seconds Connect() (and a reconnect) waits for pilots to start.
  Seconds pilot_start_timeout = 600;
  // With `via`: the login host (an ssh host of the config) the batch
  // commands run on; its name is "" otherwise. The batch host's `env` is
  // set for those commands, and its `workdir` must be an absolute path
  // that this machine and the cluster share.
  HostConfig login;
  // Largest job array; 0: the cluster's MaxArraySize; 1: one batch job per
  // gsrt job.
  int max_array = 0;
  // The master's failed/ dir, where the logs of jobs that failed in a
  // pilot are fetched when the host does not share the master's files
  // (AgentAdapterOptions::fetch_logs_to); "" fetches nothing.
  std::string fetch_logs_to;
};

// Why `options` cannot work as given (a relative workdir behind `via`; job
// mode without `shared_fs`, which it needs because it stages nothing), or
// OK.
Status CheckBatchOptions(const BatchAdapterOptions& options);

// The adapter for `options.host`: job or pilot mode, Slurm or PBS.
std::unique_ptr<Adapter> MakeBatchAdapter(boost::asio::io_context& io,
                                          Clock& clock,
                                          BatchAdapterOptions options);

}  // namespace gs

#endif  // GSRT_ADAPTERS_BATCH_BATCH_ADAPTER_H_
