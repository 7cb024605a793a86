#include "sim/runner/sim_run.h"

#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <unordered_map>

#include "runtime/engine/engine.h"
#include "sim/runner/scratch_dir.h"

namespace gs {

namespace fs = std::filesystem;

StatusOr<SimResult> RunSimulation(SimWorld& world,
                                  std::shared_ptr<SimWorkload> workload,
                                  const SimRunOptions& options,
                                  const std::function<void(Engine&)>& master) {
  // The master's side of simulated transfers makes (empty) files: in
  // memory when /dev/shm is there and TMPDIR does not say otherwise.
  fs::path base = fs::temp_directory_path();
  if (!std::getenv("TMPDIR") && ::access("/dev/shm", W_OK) == 0)
    base = "/dev/shm";
  auto scratch = ScratchDir::Make(base, "gsrt-sim");
  if (!scratch.ok()) return scratch.status();
  const std::string& tmpl = (*scratch)->path();
  auto wall0 = std::chrono::steady_clock::now();
  SimResult r;
  {
    EngineOptions eo;
    eo.cwd = tmpl;
    eo.work_dir = tmpl + "/.gsrt";
    eo.program = "gsrt-sim";
    eo.policy = options.policy;
    eo.hooks.rewind = options.rewind;
    eo.retries.infra = options.infra_retries;
    eo.retries.app = 0;
    // The papers' schedulers place a failed task again at once.
    eo.retries.backoff = 0;
    eo.reconnect_backoff = options.reconnect_backoff;
    eo.reconnect_backoff_max = options.reconnect_backoff_max;
    eo.hooks.virtual_time = true;
    eo.quiet = true;
    if (options.oracle) eo.hooks.exec_oracle = workload;
    if (options.replication_threshold > 0) {
      // wqr-ft's threshold, or wqdr-ft's optional cap (each mode reads its
      // own).
      eo.replication.threshold = options.replication_threshold;
      eo.replication.cap = options.replication_threshold;
    }
    eo.hooks.configure_policy = options.configure_policy;
    eo.history_path = options.history_path;
    eo.rank = options.rank;
    eo.operations.placement = options.placement;
    Engine engine(eo);
    std::vector<HostSetup> hosts;
    for (uint32_t h = 0; h < world.num_hosts(); ++h) {
      HostSetup s;
      s.name = world.host(h).name;
      s.worker = "sim";
      s.make = [&world, h](boost::asio::io_context&, Clock& clock) {
        return world.MakeAdapter(h, clock);
      };
      hosts.push_back(std::move(s));
    }
    Status s = engine.Start(std::move(hosts));
    if (!s.ok()) return s;
    master(engine);
    engine.Stop();
    const RunStats& st = engine.stats();
    r.tasks = st.submitted;
    r.tasks_done = st.done;
    r.tasks_failed = st.failed + st.futile;
    r.lost_outputs = st.lost_outputs;
    r.rt = st.rewound_tasks;
    r.lr = st.rewound_levels;
    r.hosts_lost = st.hosts_lost;
    r.replicas = st.replicas;
    r.replica_wins = st.replica_wins;
    r.end_time = engine.Now();
  }
  const SimStats& ss = world.stats();
  r.makespan = ss.last_job_end;
  double slots = 0;
  for (uint32_t h = 0; h < world.num_hosts(); ++h) slots += world.host(h).slots;
  r.utilization = r.makespan > 0 ? ss.useful_cpu / (slots * r.makespan) : 0;
  r.host_downs = ss.host_downs;
  r.job_failures = ss.jobs_failed;
  r.jobs = ss.jobs_started;
  r.useful_cpu = ss.useful_cpu;
  r.wasted_cpu = ss.wasted_cpu;
  r.jobs_cancelled = ss.jobs_cancelled;
  if (!ss.jobs.empty()) {
    std::unordered_map<TaskId, Seconds> end;
    for (const SimJobRecord& j : ss.jobs)
      end[j.task] = std::max(end[j.task], j.ended);
    Seconds sum = 0;
    for (auto& [t, e] : end) sum += e;
    r.mean_task_end = sum / end.size();
  }
  r.events = ss.events;
  r.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0)
          .count();
  return r;
}

}  // namespace gs
