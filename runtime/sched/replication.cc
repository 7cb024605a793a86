#include "runtime/sched/replication.h"

#include <algorithm>
#include <limits>

namespace gs {

namespace {
constexpr double kUnbounded = std::numeric_limits<double>::infinity();
}  // namespace

double ReplicationThreshold(const ReplicationInput& in) {
  switch (in.mode) {
    case ReplicationMode::kOff:
      return 1;
    case ReplicationMode::kFixed:
      return in.threshold;
    case ReplicationMode::kDynamic: {
      const double cap = in.cap > 0 ? in.cap : kUnbounded;
      // Nothing succeeded (or nothing submitted): SR = 0, RLTH = 1 + 1/0.
      if (in.jobs_ok == 0 || in.jobs_submitted == 0) return cap;
      const double sr = static_cast<double>(in.jobs_ok) /
                        static_cast<double>(in.jobs_submitted);
      return std::min(1.0 + 1.0 / sr, cap);
    }
  }
  return 1;
}

std::vector<Replica> PlanReplicas(const ReplicationInput& in) {
  std::vector<Replica> out;
  const double rlth = ReplicationThreshold(in);
  if (rlth <= 1 || in.running.empty()) return out;
  std::vector<int> free = in.free_slots;
  std::vector<double> memory = in.free_memory;
  std::vector<int> gpus = in.free_gpus;
  std::vector<std::vector<HostId>> on(in.running.size());
  for (size_t i = 0; i < in.running.size(); ++i) on[i] = in.running[i].hosts;
  auto room = [&](HostId h, const Need& need) {
    if (h >= free.size() || free[h] < need.cores || !need.Allows(h))
      return false;
    if (need.gpus > 0 && (h >= gpus.size() || gpus[h] < need.gpus))
      return false;
    return h >= memory.size() || memory[h] < 0 ||
           need.memory_gb <= memory[h] + 1e-9;
  };
  auto host_for = [&](size_t i) -> HostId {
    for (HostId h : in.host_order) {
      if (!room(h, in.running[i].need)) continue;
      if (std::find(on[i].begin(), on[i].end(), h) != on[i].end()) continue;
      return h;
    }
    return kNoHost;
  };
  for (bool placed = true; placed;) {
    placed = false;
    for (size_t i = 0; i < in.running.size(); ++i) {
      if (static_cast<double>(on[i].size()) >= rlth) continue;
      HostId h = host_for(i);
      if (h == kNoHost) continue;
      free[h] -= in.running[i].need.cores;
      if (h < memory.size() && memory[h] >= 0)
        memory[h] -= in.running[i].need.memory_gb;
      if (h < gpus.size()) gpus[h] -= in.running[i].need.gpus;
      on[i].push_back(h);
      out.push_back({in.running[i].task, h});
      placed = true;
    }
  }
  return out;
}

}  // namespace gs
