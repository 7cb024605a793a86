// Task replication (paper 001: WQR-FT and WQDR-FT), as pure planning over
// what runs where and which slots are free. The engine calls it only when
// no task is waiting for a slot, so replicas use idle slots and never delay
// a task that has not started.
//
// - fixed (WQR-FT): a running task gets replicas until it has `threshold`
//   instances running;
// - dynamic (WQDR-FT): the threshold is RLTH = 1 + 1/SR, with SR = T/N, T
//   the successful jobs and N the jobs submitted so far (the paper's lines
//   4-5 and 25-26: running and cancelled jobs count in N). Until a job has
//   succeeded SR is 0 and RLTH unbounded. `cap`, when set, bounds it (an
//   option; the paper has none). A task gets a replica while its running
//   instances are fewer than RLTH. Hosts are tried in order of their own
//   success rate, best first.
// Tasks are served in turns (the paper's pop-front / push-back over the
// queue): each pass gives at most one replica to each task, so every
// running task gets its second instance before any gets a third. Two
// instances of one task never share a host.
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
