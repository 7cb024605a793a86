// Replication (paper 001, WQR-FT and WQDR-FT) on the engine's side: when no
// task waits for a slot, running tasks get replicas on the free slots; the
// first instance to succeed wins and the others are cancelled (OnJobDone).
// The planning is the pure PlanReplicas.
#include <algorithm>

#include "runtime/engine/dispatcher.h"
#include "runtime/sched/replication.h"

namespace gs {

void Dispatcher::Replicate(const std::vector<HostState>& states,
                           const std::vector<Placement>& placed,
                           const BookFn& book) {
  ReplicationInput in;
  in.mode = replication_;
  in.threshold = replication_config_.threshold;
  in.cap = replication_config_.cap;
  in.jobs_ok = jobs_.ok();
  in.jobs_submitted = jobs_.submitted();
  in.free_slots.resize(hosts_.size());
  in.free_memory.resize(hosts_.size());
  in.free_gpus.resize(hosts_.size());
  for (HostId h = 0; h < hosts_.size(); ++h) {
    in.free_slots[h] = states[h].free_slots();
    in.free_gpus[h] = states[h].gpus - states[h].busy_gpus();
    in.free_memory[h] = states[h].memory_gb > 0
                            ? states[h].memory_gb - states[h].busy_memory()
                            : -1;
  }
  for (const Placement& p : placed) {
    Need need = scheduler_.NeedOf(graph_.task(p.task).op);
    in.free_slots[p.host] -= need.cores;
    in.free_gpus[p.host] -= need.gpus;
    if (in.free_memory[p.host] >= 0) in.free_memory[p.host] -= need.memory_gb;
  }
  int free = 0;
  for (int f : in.free_slots) free += std::max(f, 0);
  if (free == 0) return;
  in.host_order = hosts_.Order(replication_ == ReplicationMode::kDynamic);
  // Oldest tasks first: they are the most likely to hold the run up.
  std::vector<TaskId> running;
  running.reserve(jobs_.instances().size());
  for (const auto& [task, jobs] : jobs_.instances()) {
    if (graph_.task(task).state == TaskState::kRunning) running.push_back(task);
  }
  std::sort(running.begin(), running.end());
  for (TaskId t : running) {
    RunningTask rt{t, {}, scheduler_.NeedOf(graph_.task(t).op)};
    for (JobId j : jobs_.instances().at(t)) {
      rt.hosts.push_back(jobs_.at(j).host);
    }
    in.running.push_back(std::move(rt));
  }
  const Seconds now = clock_->Now();
  for (const Replica& r : PlanReplicas(in)) {
    const Task& task = graph_.task(r.task);
    Seconds end = now + predictor_->ExecTime(task.op, r.host);
    book({r.task, r.host, end, /*replica=*/true, nullptr});
  }
}

}  // namespace gs
