// Simulation figures for docs/benchmarks.md:
//  1. simulated events per second of the engine in virtual time, on a bag
//     of tasks over many sim hosts (default 1,000 hosts x 100,000 tasks,
//     identical hosts); with a speed spread, each policy named runs the bag
//     on identical hosts (the baseline) and then on drawn speeds, in the
//     same run, and the ratio is printed;
//  2. scheduling time per task of each policy: one round placing N ready
//     tasks on N free one-slot hosts (pure Scheduler, no engine),
//     execution times drawn per (task, host); the volatile policies run
//     without a host model (every host always UP); wqr, wqr-ft and
//     wqdr-ft place by WorkQueue (their replication is the engine's: item 3);
//  2b. the same round on two-slot hosts without and with constraints (a
//     third of the tasks holding 2 cores and 1 GB), and their ratio;
//  3. replication planning (paper 001): one PlanReplicas call giving N
//     running tasks replicas on N free one-slot hosts, per replica.
// A plain program: prints a table; no test.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "runtime/sched/policies_volatile.h"
#include "runtime/sched/replication.h"
#include "runtime/sched/scheduler.h"
#include "sim/experiments/sim_experiments.h"

namespace {

class TablePredictor : public gs::Predictor {
 public:
  TablePredictor(size_t tasks, size_t hosts, uint64_t seed) : hosts_(hosts) {
    std::mt19937_64 rng(seed);
    t_.resize(tasks * hosts);
    for (double& v : t_) v = 1 + static_cast<double>(rng() % 1000);
  }
  gs::Seconds ExecTime(gs::OpId op, gs::HostId h) const override {
    return t_[op * hosts_ + h];
  }
  gs::Seconds TransferTime(gs::TaskId, gs::HostId) const override { return 0; }

 private:
  size_t hosts_;
  std::vector<double> t_;
};

// This process's CPU time: on a shared machine it moves less with the
// load than the wall time does.
double CpuSeconds() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + t.tv_nsec * 1e-9;
}

double SecondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
      .count();
}

void PolicyTimes(size_t hosts, size_t tasks) {
  TablePredictor pred(tasks, hosts, 7);
  std::printf("\nscheduling one round: %zu ready tasks on %zu free hosts\n",
              tasks, hosts);
  std::printf("%-8s %14s\n", "policy", "us per placed task");
  for (const char* name :
       {"met", "mct", "ftmet", "ftmct", "grank", "min-min", "ip", "ie", "iy",
        "iay", "wqr", "wqr-ft", "wqdr-ft"}) {
    auto policy = gs::MakePolicy(name);
    if (!policy.ok()) continue;
    gs::Scheduler sched(std::move(policy).value());
    for (gs::TaskId t = 0; t < tasks; ++t) sched.AddReady(t, t);
    std::vector<gs::HostState> states(hosts);
    gs::SchedulingInput in{0, &states, &pred};
    auto t0 = std::chrono::steady_clock::now();
    auto placed = sched.Schedule(in);
    double s = SecondsSince(t0);
    std::printf("%-8s %14.2f   (%zu placed)\n", name,
                s / std::max<size_t>(placed.size(), 1) * 1e6, placed.size());
  }
}

// The capacity model's cost (issue 15): the same round as above on
// two-slot hosts with 8 GB, once with no constraints (every task one core,
// the path all runs took before) and once with every third task holding 2
// cores and 1 GB; the ratio is the cost of the constraints.
void CapacityTimes(size_t hosts, size_t tasks) {
  TablePredictor pred(tasks, hosts, 7);
  std::printf(
      "\ncapacity: %zu ready tasks on %zu free 2-slot hosts, "
      "us per placed task\n",
      tasks, hosts);
  std::printf("%-8s %12s %12s %8s\n", "policy", "no needs", "1/3 needs",
              "ratio");
  for (const char* name :
       {"met", "mct", "ftmet", "ftmct", "grank", "min-min", "wqr"}) {
    double per_task[2] = {0, 0};
    for (int constrained = 0; constrained < 2; ++constrained) {
      auto policy = gs::MakePolicy(name);
      if (!policy.ok()) break;
      gs::Scheduler sched(std::move(policy).value());
      for (gs::TaskId t = 0; t < tasks; ++t) {
        if (constrained && t % 3 == 0) sched.SetNeed(t, gs::Need{2, 1.0});
        sched.AddReady(t, t);
      }
      std::vector<gs::HostState> states(hosts);
      for (gs::HostState& h : states) {
        h.slots = 2;
        h.memory_gb = 8;
      }
      gs::SchedulingInput in{0, &states, &pred};
      auto t0 = std::chrono::steady_clock::now();
      auto placed = sched.Schedule(in);
      per_task[constrained] =
          SecondsSince(t0) / std::max<size_t>(placed.size(), 1) * 1e6;
    }
    std::printf("%-8s %12.2f %12.2f %8.2f\n", name, per_task[0], per_task[1],
                per_task[1] / std::max(per_task[0], 1e-9));
  }
}

void ReplicationTimes(size_t hosts) {
  for (auto mode :
       {gs::ReplicationMode::kFixed, gs::ReplicationMode::kDynamic}) {
    gs::ReplicationInput in;
    in.mode = mode;
    in.threshold = 2;
    in.jobs_ok = 90;
    in.jobs_submitted = 100;  // SR 0.9: RLTH 2.11
    in.cap = 2;               // (the option; the paper has no cap)
    // N running tasks on hosts 0..N-1, one free slot on hosts N..2N-1.
    in.free_slots.assign(2 * hosts, 0);
    for (size_t h = 0; h < 2 * hosts; ++h) {
      in.host_order.push_back(static_cast<gs::HostId>(h));
      if (h >= hosts) in.free_slots[h] = 1;
    }
    for (size_t t = 0; t < hosts; ++t) {
      in.running.push_back(
          {static_cast<gs::TaskId>(t), {static_cast<gs::HostId>(t)}});
    }
    auto t0 = std::chrono::steady_clock::now();
    auto replicas = gs::PlanReplicas(in);
    double s = SecondsSince(t0);
    std::printf("%-8s %14.2f   (%zu replicas, %zu running tasks)\n",
                mode == gs::ReplicationMode::kFixed ? "fixed" : "dynamic",
                s / std::max<size_t>(replicas.size(), 1) * 1e6, replicas.size(),
                hosts);
  }
}

// The bag with identical hosts (the baseline) and then with drawn speeds,
// for one policy; prints both and their ratio. False on an error.
bool BagPair(size_t hosts, size_t tasks, double spread,
             const std::string& policy) {
  double wall[2] = {0, 0}, cpu[2] = {0, 0};
  for (int drawn = 0; drawn < 2; ++drawn) {
    gs::BotOptions o;
    o.hosts = hosts;
    o.tasks = tasks;
    o.speed_spread = drawn ? spread : 0;
    o.policy = policy;
    const double cpu0 = CpuSeconds();
    auto r = gs::RunBot(o);
    if (!r.ok()) {
      std::fprintf(stderr, "sim_bench: %s\n", r.status().message().c_str());
      return false;
    }
    cpu[drawn] = CpuSeconds() - cpu0;
    wall[drawn] = r->wall_seconds;
    std::printf(
        "%-8s speeds %s: %llu events in %.2f s (CPU %.2f s): %.0f events/s; "
        "%.1f us per task; virtual makespan %.0f s, utilization %.3f\n",
        policy.c_str(), drawn ? "drawn    " : "identical",
        static_cast<unsigned long long>(r->events), r->wall_seconds, cpu[drawn],
        r->events / r->wall_seconds, r->wall_seconds / tasks * 1e6, r->makespan,
        r->utilization);
  }
  std::printf("%-8s drawn / identical: %.2f (CPU %.2f)\n", policy.c_str(),
              wall[1] / std::max(wall[0], 1e-9),
              cpu[1] / std::max(cpu[0], 1e-9));
  return true;
}

}  // namespace

// sim_bench [hosts] [tasks] [spread] [policies] [--bag-only]
//   policies: comma-separated, default "mct"; each runs the bag with
//   identical hosts, then with speeds drawn in [1 - spread, 1 + spread].
int main(int argc, char** argv) {
  std::vector<std::string> args;
  bool bag_only = false;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--bag-only") {
      bag_only = true;
    } else {
      args.push_back(argv[i]);
    }
  }
  size_t hosts =
      args.size() > 0 ? std::strtoul(args[0].c_str(), nullptr, 10) : 1000;
  size_t tasks =
      args.size() > 1 ? std::strtoul(args[1].c_str(), nullptr, 10) : 100000;
  double spread = args.size() > 2 ? std::strtod(args[2].c_str(), nullptr) : 0;
  std::string policies = args.size() > 3 ? args[3] : "mct";
  std::printf("bag of %zu tasks on %zu sim hosts, speed spread %.2f\n", tasks,
              hosts, spread);
  for (size_t at = 0; at <= policies.size();) {
    size_t comma = std::min(policies.find(',', at), policies.size());
    std::string policy = policies.substr(at, comma - at);
    at = comma + 1;
    if (policy.empty()) continue;
    if (spread == 0) {
      // One run, as before: the identical-host figure alone.
      gs::BotOptions o;
      o.hosts = hosts;
      o.tasks = tasks;
      o.speed_spread = 0;
      o.policy = policy;
      auto r = gs::RunBot(o);
      if (!r.ok()) {
        std::fprintf(stderr, "sim_bench: %s\n", r.status().message().c_str());
        return 1;
      }
      std::printf(
          "%-8s %llu events in %.2f s: %.0f events/s; %.1f us per task; "
          "virtual makespan %.0f s, utilization %.3f\n",
          policy.c_str(), static_cast<unsigned long long>(r->events),
          r->wall_seconds, r->events / r->wall_seconds,
          r->wall_seconds / tasks * 1e6, r->makespan, r->utilization);
    } else if (!BagPair(hosts, tasks, spread, policy)) {
      return 1;
    }
  }
  if (bag_only) return 0;
  PolicyTimes(16, 16);
  PolicyTimes(100, 100);
  PolicyTimes(1000, 1000);
  CapacityTimes(100, 100);
  CapacityTimes(1000, 1000);
  std::printf("\nreplication planning (PlanReplicas), threshold 2\n");
  std::printf("%-8s %14s\n", "mode", "us per replica");
  ReplicationTimes(16);
  ReplicationTimes(100);
  ReplicationTimes(1000);
  return 0;
}
