// The engine's private records of hosts and jobs, shared by engine*.cc.
#ifndef GSRT_RUNTIME_ENGINE_ENGINE_HOSTS_H_
#define GSRT_RUNTIME_ENGINE_ENGINE_HOSTS_H_

#include <memory>
#include <string>

#include "adapters/adapter.h"
#include "runtime/base/clock.h"
#include "runtime/engine/engine.h"
#include "runtime/sched/policies_ft.h"

namespace gs {

// What a job of `op` holds: its @Constraints (at least one core).
Need NeedOfOperation(const gs_operation& op);

struct Engine::HostEntry {
  std::string name;
  std::string worker;
  std::unique_ptr<Adapter> adapter;
  bool usable = true;
  bool shared = true;    // sees the master's files at the same paths
  std::string data_dir;  // version files on the host when not shared
  uint64_t running = 0;  // jobs placed here and not finished
  uint64_t staging = 0;  // of which still waiting for their inputs
  // The same in cores (a job holds its operation's ComputingUnits).
  uint64_t running_cores = 0;
  uint64_t staging_cores = 0;
  // Capacity: cores and memory (GB, 0: not limited).
  int cores = 1;
  double memory_gb = 0;
  // Jobs queued there beyond its slots (runtime/sched/prefetch.h), at
  // least; more when its jobs are short (prefetch_window).
  int prefetch = 0;
  Seconds prefetch_window = 0;
  // Recent mean run time of its jobs (exponential, from their reports);
  // 0 before the first ends.
  Seconds mean_job = 0;
  // Taken from the adapter rather than gsrt.yaml, so followed as the host
  // changes (pilots sized by their allocations come and go).
  bool learns_cores = false;
  bool learns_memory = false;
  // After a loss: the next reconnect attempt and its delay (doubling).
  std::unique_ptr<Timer> reconnect_timer;
  Seconds reconnect_delay = 0;
  std::string reconnect_error;  // why the last attempt failed ("": none yet)
  bool reconnecting = false;    // an attempt is under way
  // Lost with what the run put there (copies, sandboxes): swept when it is
  // back (engine_sweep.cc).
  bool left_behind = false;
  bool final_try = false;   // GS_Off waits for this host's last attempt
  bool confirming = false;  // GS_Off waits for its answer after removals
  // Jobs that ended here and how many of them succeeded (the host's
  // success rate, for WQDR-FT's host order).
  uint64_t jobs_finished = 0;
  uint64_t jobs_ok = 0;
};

struct Engine::JobEntry {
  TaskId task;
  HostId host;
  Seconds predicted_end;
  Seconds submitted;
  uint32_t attempt;
  bool replica = false;  // a copy of a task already running elsewhere
  // Where a replica on a host sharing the master's files writes its
  // outputs (dest -> final path), moved into place if it wins.
  std::vector<std::pair<std::string, std::string>> replica_outputs;
  // What the job holds (its operation's Need), kept here so a round does
  // not look every running job's task up again.
  Need need;
  uint32_t running_index = 0;  // in Engine::running_jobs_
};

// Consulted by FTMET/FTMCT while the engine schedules (mutex held).
class Engine::Health : public HostHealth {
 public:
  explicit Health(const Engine* engine) : engine_(engine) {}
  bool Alive(HostId host) const override {
    return engine_->HealthOfLocked(host) == HealthState::kUp;
  }

 private:
  const Engine* engine_;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_ENGINE_HOSTS_H_
