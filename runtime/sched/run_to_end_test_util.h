// The scheduler's tests' run to the end (capacity_test, placement_test):
// ready tasks placed round after round by a policy, as the engine would
// place them, jobs ending at their predicted time, and what the run did
// seen from outside the policy.
#ifndef GSRT_RUNTIME_SCHED_RUN_TO_END_TEST_UTIL_H_
#define GSRT_RUNTIME_SCHED_RUN_TO_END_TEST_UTIL_H_

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "runtime/sched/scheduler.h"

namespace gs {
namespace testing_util {

// Each op's time (1 s when not given), times the host's factor (1 when
// not given).
class FixedPredictor : public Predictor {
 public:
  std::map<OpId, Seconds> et;
  std::vector<double> host_factor;
  Seconds ExecTime(OpId op, HostId h) const override {
    auto it = et.find(op);
    const double factor = h < host_factor.size() ? host_factor[h] : 1.0;
    return (it == et.end() ? 1.0 : it->second) * factor;
  }
  Seconds TransferTime(TaskId, HostId) const override { return 0; }
};

struct Capacity {
  int cores;
  double memory_gb = 0;
  int gpus = 0;
};

// What a run did, seen from outside the policy.
struct Trace {
  bool finished = false;        // every task ran
  int most_cores = 0;           // most cores busy at once on any host
  double most_memory = 0;       // most GB held at once on any host
  int most_gpus = 0;            // most GPUs held at once on any host
  int most_small_together = 0;  // most one-core tasks running at once
  std::vector<TaskId> started;  // in start order
  std::string overflow;         // the first time a host was oversubscribed
  std::map<OpId, std::set<HostId>> hosts_of_op;  // where each op's ran
};

// Runs `tasks` (task i of op ops[i]) to the end on `hosts` with `policy`,
// as the engine would: a round after every job's end, jobs ending at their
// predicted time.
inline Trace RunToEnd(std::unique_ptr<Policy> policy,
                      const std::vector<Capacity>& hosts,
                      const std::map<OpId, Need>& needs,
                      const std::vector<OpId>& ops,
                      const FixedPredictor& predictor) {
  Scheduler s(std::move(policy));
  for (const auto& [op, need] : needs) s.SetNeed(op, need);
  for (TaskId t = 0; t < ops.size(); ++t) s.AddReady(t, ops[t]);
  struct Job {
    TaskId task;
    HostId host;
    Seconds end;
  };
  std::vector<Job> running;
  Trace trace;
  Seconds now = 0;
  for (int round = 0; round < 10000; ++round) {
    std::vector<HostState> states(hosts.size());
    for (HostId h = 0; h < hosts.size(); ++h) {
      states[h].slots = hosts[h].cores;
      states[h].memory_gb = hosts[h].memory_gb;
      states[h].gpus = hosts[h].gpus;
    }
    for (const Job& j : running) {
      states[j.host].AddBusy(j.end, s.NeedOf(ops[j.task]));
    }
    for (const Placement& p : s.Schedule({now, &states, &predictor})) {
      running.push_back({p.task, p.host, p.predicted_end});
      states[p.host].AddBusy(p.predicted_end, s.NeedOf(ops[p.task]));
      trace.started.push_back(p.task);
      trace.hosts_of_op[ops[p.task]].insert(p.host);
    }
    int small = 0;
    for (HostId h = 0; h < hosts.size(); ++h) {
      int cores = states[h].busy_cores();
      double memory = states[h].busy_memory();
      int gpus = states[h].busy_gpus();
      trace.most_cores = std::max(trace.most_cores, cores);
      trace.most_memory = std::max(trace.most_memory, memory);
      trace.most_gpus = std::max(trace.most_gpus, gpus);
      if (trace.overflow.empty() &&
          (cores > hosts[h].cores || gpus > hosts[h].gpus ||
           (hosts[h].memory_gb > 0 && memory > hosts[h].memory_gb + 1e-9))) {
        trace.overflow = "host " + std::to_string(h) + " at " +
                         std::to_string(now) + ": " + std::to_string(cores) +
                         " cores, " + std::to_string(memory) + " GB";
      }
    }
    for (const Job& j : running) small += s.NeedOf(ops[j.task]).simple();
    trace.most_small_together = std::max(trace.most_small_together, small);
    if (running.empty()) {
      trace.finished = s.num_ready() == 0;
      return trace;  // nothing runs: done, or stuck
    }
    Seconds next = running.front().end;
    for (const Job& j : running) next = std::min(next, j.end);
    now = next;
    std::erase_if(running, [&](const Job& j) { return j.end <= now; });
  }
  return trace;
}

}  // namespace testing_util
}  // namespace gs

#endif  // GSRT_RUNTIME_SCHED_RUN_TO_END_TEST_UTIL_H_
