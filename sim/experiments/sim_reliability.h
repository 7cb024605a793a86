// Paper 004's experiment in virtual time: hosts of known reliability (the
// four DAS-2 clusters of the paper's tables 1 and 2), a history filled by
// earlier runs that know nothing of reliability, table 1 recomputed from
// that history (eq. 1-3 and the ranking of eq. 4-5), then grank against
// rank-blind policies, each starting from its own copy of the history.
#ifndef GSRT_SIM_EXPERIMENTS_SIM_RELIABILITY_H_
#define GSRT_SIM_EXPERIMENTS_SIM_RELIABILITY_H_

#include <string>
#include <vector>

#include "runtime/base/status.h"
#include "sim/runner/sim_report.h"
#include "sim/runner/sim_run.h"

namespace gs {

// One worker of the paper's tables 1 and 2, and the speed we give it.
struct ReliabilityHost {
  std::string name;
  double availability = 1;  // table 1; the Markov chain's long-run UP share
  Seconds transfer = 0;     // table 1's file transfer time, per transfer
  Seconds queue_wait = 0;   // table 2, before each job
  // Not in the paper: the faster hosts are the less reliable ones, the
  // case where a rank-blind policy goes wrong.
  double speed = 1;
};

// Table 1's four clusters in the paper's order.
std::vector<ReliabilityHost> Paper004Hosts();

struct ReliabilityOptions {
  size_t tasks = 16;
  Seconds mean = 2000;  // work of a task at speed 1, drawn in [0.5, 1.5] x
  int slots = 4;        // the paper's runs used 4 processors of a cluster
  Seconds mttr = 3000;  // mean DOWN time; MTBF follows from availability
  int learn_runs = 10;  // rank-blind runs (MCT) that fill the history
  RankWeights rank;     // grank's alpha, beta, mu, gamma (eq. 4-5)
  uint64_t seed = 1;
};

// The sim hosts for `hosts`: UP/DOWN chains with mean DOWN time `mttr` and
// a mean UP time that gives each its availability (none when it is 1).
std::vector<SimHostSpec> ReliabilitySimHosts(
    const std::vector<ReliabilityHost>& hosts, int slots, Seconds mttr);

// Appends `options.learn_runs` MCT runs (seeds seed+1000...) to the
// history at `history_path` (made if missing).
Status FillHistory(const std::vector<ReliabilityHost>& hosts,
                   const ReliabilityOptions& options,
                   const std::string& history_path);

// Table 1 from the history at `history_path`, one row per host of
// `hosts`: availability (eq. 1-2 over the recorded checks), distrust
// (eq. 3), the checks behind them, the transfer time and queue wait, the
// predicted time of a mean task (eq. 4, ET = mean / speed) and the ranks
// rrank, prank and grank (eq. 5 with `rank`'s weights).
StatusOr<std::vector<SimRow>> Table1FromHistory(
    const std::vector<ReliabilityHost>& hosts, Seconds mean,
    const RankWeights& rank, const std::string& history_path);

// One run of `policy` (seed `seed`) on a private copy of the history, so
// that every policy starts from the same knowledge.
StatusOr<SimResult> RunWithHistory(const std::vector<ReliabilityHost>& hosts,
                                   const ReliabilityOptions& options,
                                   const std::string& policy,
                                   const std::string& history_path);

}  // namespace gs

#endif  // GSRT_SIM_EXPERIMENTS_SIM_RELIABILITY_H_
