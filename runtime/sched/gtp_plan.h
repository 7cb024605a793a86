// GTP's mapping step (Hernandez & Cole, paper 000, section 3): at a
// rescheduling point, a static mapping of every unfinished task of the
// DAG, recomputed at each point from the latest resource and progress
// information, where a task is migrated when that lowers its earliest
// finish time. Tasks are mapped in order of Level, each to the usable
// processor where it finishes first. The paper's structures (GRP, STG:
// W, data, Pi, kappa^c, kappa^d, Omega) and the readings taken where the
// paper leaves the costing to its reference [1]: docs/algorithms.md,
// "GTP's mapping step". Pure: tested on small DAGs (gtp_plan_test.cc).
#ifndef GSRT_RUNTIME_SCHED_GTP_PLAN_H_
#define GSRT_RUNTIME_SCHED_GTP_PLAN_H_

#include <cstddef>
#include <functional>
#include <vector>

#include "runtime/base/clock.h"

namespace gs {

inline constexpr size_t kGtpNone = static_cast<size_t>(-1);
// A copy held by the master's machine (gsrt's data goes through it): a
// source in Omega(e) that never fails.
inline constexpr size_t kGtpMaster = static_cast<size_t>(-2);

struct GtpEdge {
  size_t from = 0, to = 0;
  double data = 0;             // data(i, j), in the bandwidth's units
  double done = 0;             // kappa^d: the part already received
  std::vector<size_t> copies;  // Omega(e): processors holding a copy
};

struct GtpTask {
  std::vector<Seconds> w;    // W(i, m) per processor at full availability
  size_t placed = kGtpNone;  // Pi(v): kGtpNone or a processor
  double computed = 0;       // kappa^c: 1 is finished
  Seconds finished_at = 0;   // when finished (kappa^c = 1)
};

struct GtpInput {
  Seconds now = 0;
  std::vector<double> avail;                   // per processor
  std::vector<std::vector<double>> bandwidth;  // [m][n], m != n
  // When set, replaces data * remaining / bandwidth[src][dst] as the time
  // to move `remaining` (a proportion) of an edge's data from `src` (a
  // processor or kGtpMaster) to `dst` != src.
  std::function<Seconds(const GtpEdge& edge, size_t src, size_t dst,
                        double remaining)>
      transfer;
  // Processors busy with work outside the plan until then (optional).
  std::vector<Seconds> busy_until;
  std::vector<GtpTask> tasks;
  std::vector<GtpEdge> edges;
};

struct GtpPlan {
  // Per task (finished ones: where they ran, start = end = finished_at).
  std::vector<size_t> processor;
  std::vector<Seconds> start, end;
  std::vector<bool> migrated;  // placed, unfinished, mapped elsewhere
  // Tasks in the order they were mapped (unfinished ones only).
  std::vector<size_t> order;
  Seconds makespan = 0;  // latest end
};

// Level(v): edges on the longest path from an entry task to v.
std::vector<size_t> GtpLevels(size_t tasks, const std::vector<GtpEdge>& edges);

// The mapping at `in.now`. Every unfinished task gets a usable processor
// (avail > 0) if there is one, else kGtpNone.
GtpPlan PlanGtp(const GtpInput& in);

}  // namespace gs

#endif  // GSRT_RUNTIME_SCHED_GTP_PLAN_H_
