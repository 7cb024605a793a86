// The papers' experiments on the real engine in virtual time: what
// gsrt-sim runs and docs/experiments.md tabulates. Each function builds the
// workload and the simulated hosts, runs RunSimulation and returns the
// figures; the tool only parses arguments and prints.
#ifndef GSRT_SIM_EXPERIMENTS_SIM_EXPERIMENTS_H_
#define GSRT_SIM_EXPERIMENTS_SIM_EXPERIMENTS_H_

#include <string>
#include <vector>

#include "sim/instances/etc_matrix.h"
#include "sim/instances/stg_graph.h"
#include "sim/runner/sim_run.h"

namespace gs {

// A host going down (and, if `until` > at, coming back UP then).
struct SimFailure {
  uint32_t host = 0;
  Seconds at = 0;
  Seconds until = -1;
};

// Parses "M@T" or "M@T-U" (host index, seconds).
StatusOr<SimFailure> ParseSimFailure(std::string_view text);

// An ETC instance as a bag on one-slot hosts (machine j = host j), no
// transfers, through the engine with `policy`. Fault-tolerant policies
// consult the simulated availability (their liveness check).
StatusOr<SimResult> RunEtc(const EtcMatrix& etc, const std::string& policy,
                           const std::vector<SimFailure>& failures,
                           uint64_t seed = 1);

// Paper 003's failures ("machine M fails after task T") as times for the
// engine, which has no arrival sequence: M goes down when it ends the last
// task numbered before T that `policy` gives it in a run without failures
// (at 0 if it has none). Tasks queued for M then move to other machines.
StatusOr<std::vector<SimFailure>> TimedPaper003Failures(
    const EtcMatrix& etc, const std::string& policy);

// A DAG experiment (paper 000) on identical one-slot hosts linked to the
// master by `latency` and `bandwidth`.
struct DagOptions {
  size_t hosts = 5;
  std::string policy = "mct";
  std::string rewind = "gtp-c-r";  // gtp-r, gtp-c-r, restart
  double ccr = 0.5;                // edge transfer time / producer's mean time
  double bandwidth = 1e6;
  Seconds latency = 0.01;
  // Explicit failures; when empty and fail_mid is set, one host drawn
  // from the seed among those running a job at half the failure-free
  // makespan fails then, for good.
  std::vector<SimFailure> failures;
  bool fail_mid = true;
  uint64_t seed = 1;
};

struct DagResult {
  SimResult base;    // without failures
  SimResult failed;  // with them
  Seconds cp = 0;    // critical path over mean times
  double nsl = 0;    // base makespan / cp
  double nsl_r = 0;  // failed makespan / cp
  double aet = 0;    // nsl_r - nsl
  std::vector<SimFailure> applied;
};

StatusOr<DagResult> RunDag(const StgGraph& graph, const DagOptions& options);

// A bag of independent tasks (BagWorkload) on hosts of speeds drawn in
// [1 - speed_spread, 1 + speed_spread], failing by the list, a trace file, or a
// Markov chain with exponential-like (geometric, 1 s slots) UP and DOWN times
// of means mtbf and mttr. Policy `wqr` runs as paper 001 defines it, without
// automatic restart: a task whose every instance failed is not run again
// (it may stay undone); all other policies restart failed tasks.
struct BotOptions {
  size_t tasks = 1000;
  size_t hosts = 10;
  int slots = 1;
  Seconds mean = 100;
  // Host speeds are drawn in [1 - spread, 1 + spread].
  double speed_spread = 0.5;
  std::string policy = "mct";
  // Replication threshold of wqr / wqr-ft (0 = the engine's default, 2);
  // cap of wqdr-ft's RLTH (0 = none, as in the paper).
  int threshold = 0;
  std::vector<SimFailure> failures;
  std::string trace;
  Seconds mtbf = 0;
  Seconds mttr = 0;
  // Each host's MTBF is drawn in [mtbf (1 - s), mtbf (1 + s)] (hosts of
  // unequal reliability, what WQDR-FT's ordering by success rate needs).
  double mtbf_spread = 0;
  uint64_t seed = 1;
};
StatusOr<SimResult> RunBot(const BotOptions& options);

// Paper 002: iterations of m tightly-coupled identical tasks on volatile
// hosts until a deadline. Each host draws (from the seed) a time per task
// in [w_min, w_max], 1 to max_slots slots and a Markov chain: per slot
// UP->DOWN in [0.0005, 0.005], UP->RECLAIMED in [0.001, 0.01],
// RECLAIMED stays in [0.8, 0.95] (a tenth of the rest to DOWN),
// DOWN stays in [0.95, 0.995] (then UP). Before computing, a host receives
// the program (t_prog seconds, once until it goes DOWN) and each task's data
// (t_data), the master sending to at most n_com hosts at once (paper 002,
// section III; adapters/simulated/sim_world.h, SimCommunication). The paper
// gives no values for these; the defaults are ours.
struct VolatileOptions {
  size_t hosts = 20;
  uint32_t m = 10;
  Seconds deadline = 10000;
  Seconds slot = 1;
  std::string policy = "iy";
  Seconds w_min = 10;
  Seconds w_max = 30;
  int max_slots = 2;
  Seconds t_prog = 10;
  Seconds t_data = 2;
  uint32_t n_com = 5;
  uint64_t seed = 1;
};
struct VolatileResult {
  SimResult run;
  uint64_t iterations = 0;  // completed by the deadline
  // The master link: sends that arrived, and tasks that used data their
  // host already held.
  uint64_t program_sends = 0;
  uint64_t data_sends = 0;
  uint64_t data_reused = 0;
};
StatusOr<VolatileResult> RunVolatile(const VolatileOptions& options);

}  // namespace gs

#endif  // GSRT_SIM_EXPERIMENTS_SIM_EXPERIMENTS_H_
