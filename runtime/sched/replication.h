// Task replication (paper 001: WQR-FT and WQDR-FT), as pure planning over
// what runs where and which slots are free. The engine calls it only when
// no task is waiting for a slot, so replicas use idle slots and never delay
// a task that has not started. A running task gets replicas up to
// `threshold` instances (fixed, WQR-FT) or while it has fewer than RLTH =
// 1 + 1/SR (dynamic, WQDR-FT; SR = successful / submitted jobs; `cap`, when
// set, bounds it), on hosts tried in `host_order`. Tasks are served in
// turns, each pass giving at most one replica to each task; two instances
// of one task never share a host (docs/design.md, "Failures").
#ifndef GSRT_RUNTIME_SCHED_REPLICATION_H_
#define GSRT_RUNTIME_SCHED_REPLICATION_H_

#include <vector>

#include "runtime/config/config.h"
#include "runtime/sched/scheduler.h"

namespace gs {

struct RunningTask {
  TaskId task;
  std::vector<HostId> hosts;  // where its instances run (one per instance)
  Need need;                  // what each instance holds
};

struct ReplicationInput {
  ReplicationMode mode = ReplicationMode::kOff;
  int threshold = 2;  // fixed mode: instances per task
  int cap = 0;        // dynamic mode: most instances per task; 0 = none
  // Successful and submitted jobs so far (dynamic mode): SR = ok / submitted.
  uint64_t jobs_ok = 0;
  uint64_t jobs_submitted = 0;
  std::vector<RunningTask> running;  // oldest first
  std::vector<HostId> host_order;    // hosts to try, best first
  std::vector<int> free_slots;       // per host id: free cores
  // Per host id: memory not held, in GB (a negative value or no entry: not
  // limited). A replica needs its task's cores and memory free.
  std::vector<double> free_memory;
  // Per host id: GPUs not held (no entry: none).
  std::vector<int> free_gpus;
};

struct Replica {
  TaskId task;
  HostId host;
};

// The replication threshold RLTH (instances per task, counting the first);
// infinity when nothing bounds it.
double ReplicationThreshold(const ReplicationInput& in);

std::vector<Replica> PlanReplicas(const ReplicationInput& in);

}  // namespace gs

#endif  // GSRT_RUNTIME_SCHED_REPLICATION_H_
