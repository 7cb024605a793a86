// One simulated run: the real Engine in virtual time on a SimWorld's hosts,
// a master program, and the figures the papers report.
#ifndef GSRT_SIM_RUNNER_SIM_RUN_H_
#define GSRT_SIM_RUNNER_SIM_RUN_H_

#include <functional>
#include <memory>
#include <string>

#include "adapters/simulated/sim_world.h"
#include "runtime/base/status.h"
#include "runtime/config/config.h"
#include "runtime/sched/scheduler.h"
#include "sim/runner/sim_workload.h"

namespace gs {

class Engine;

struct SimRunOptions {
  std::string policy = "mct";
  std::string rewind = "gtp-c-r";  // EngineHooks::rewind
  // Simulated hosts fail often: the infrastructure retry budget is large.
  int infra_retries = 1000000;
  Seconds reconnect_backoff = 1;
  Seconds reconnect_backoff_max = 60;
  // Predict with the workload's true times (as the papers do).
  bool oracle = true;
  // When > 0: wqr and wqr-ft's threshold, wqdr-ft's cap of RLTH (without
  // it wqdr-ft has none, as in the paper).
  int replication_threshold = 0;
  std::function<void(Policy&)> configure_policy;
  // A history to learn from and record into (paper 004's experiment);
  // "" = none.
  std::string history_path;
  // grank's weights (eq. 4-5).
  RankWeights rank;
  // runtime.hosts: operations (t0, t1, ...) kept to hosts, by host name.
  std::map<std::string, std::vector<std::string>> placement;
};

struct SimResult {
  Seconds makespan = 0;    // end of the last successful job
  double utilization = 0;  // useful slot-seconds / (slots x makespan)
  uint64_t tasks = 0;
  uint64_t tasks_done = 0;
  uint64_t tasks_failed = 0;  // failed or never runnable
  uint64_t lost_outputs = 0;  // final versions GS_Off could not put in place
  uint64_t rt = 0;            // rewound tasks (paper 000), summed
  uint64_t lr = 0;            // levels rewound, largest
  uint64_t hosts_lost = 0;    // losses the engine noticed
  uint64_t host_downs = 0;    // DOWN transitions in the simulation
  uint64_t job_failures = 0;  // jobs ended by a host going down
  uint64_t jobs = 0;
  Seconds useful_cpu = 0;
  Seconds wasted_cpu = 0;
  uint64_t replicas = 0;        // replicas started (paper 001)
  uint64_t replica_wins = 0;    // replicas that finished their task first
  uint64_t jobs_cancelled = 0;  // jobs the engine stopped (losing replicas)
  // Mean virtual time at which a task's last successful job ended, when
  // the world recorded jobs (SimStats::record_jobs); 0 otherwise.
  Seconds mean_task_end = 0;
  uint64_t events = 0;      // simulation events
  double wall_seconds = 0;  // real time the run took
  Seconds end_time = 0;     // virtual time at GS_Off
};

// Starts an Engine in virtual time with one sim host per world host, runs
// `master` (which submits and waits, e.g. workload->SubmitAll), stops it
// and gathers the figures. Work files live in a temporary directory,
// removed afterwards.
StatusOr<SimResult> RunSimulation(SimWorld& world,
                                  std::shared_ptr<SimWorkload> workload,
                                  const SimRunOptions& options,
                                  const std::function<void(Engine&)>& master);

}  // namespace gs

#endif  // GSRT_SIM_RUNNER_SIM_RUN_H_
