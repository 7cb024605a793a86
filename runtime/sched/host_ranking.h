// Host ranking of paper 004 section 2 (the contract): reliability from
// availability and distrust, predicted time, and the global rank
//   availability = 1 - na/ta                                  (eq. 1-2)
//   distrust     = trv, accumulated infrastructure failures   (eq. 3)
//   Time         = mu*ET + gamma*FTT + delta, FTT = L + vol/B (eq. 4)
//   grank        = alpha*rrank + beta*prank                   (eq. 5)
// Pure logic, no I/O: gsdeploy and the scheduler feed it counts from the
// history and predictions from ExecTimeEstimator. Over the eligible hosts
// only, rrank and prank are 1 + the number of hosts strictly less reliable
// / with a larger Time by more than the two Times' spreads (ties share the
// lower number); the highest grank is the best host (docs/history.md,
// "Host ranking").
#ifndef GSRT_RUNTIME_SCHED_HOST_RANKING_H_
#define GSRT_RUNTIME_SCHED_HOST_RANKING_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/base/clock.h"

namespace gs {

// What is known about one host, for one job (ET, vol and the memory need
// depend on the job).
struct HostFacts {
  std::string name;
  int64_t attempts = 0;      // ta: availability checks, accumulated
  int64_t not_answered = 0;  // na: checks not answered, accumulated
  int64_t distrust = 0;      // trv: infrastructure failures, accumulated
  // Free physical memory in bytes; nullopt when unknown (then the host is
  // not excluded for memory).
  std::optional<uint64_t> free_memory;
  Seconds et = 0;          // ET: predicted execution time of the job here
  Seconds latency = 0;     // L (or a measured round trip, the paper's
                           // alternative FTT estimate)
  double bandwidth = 0;    // B in bytes/s; <= 0 means unknown: the vol/B
                           // term is left out
  Seconds queue_wait = 0;  // delta: predicted queue wait (or load)
  // How far the measurements behind latency and bandwidth spread (0:
  // exact). Predicted times closer than their spreads tie in prank.
  Seconds latency_spread = 0;
  double bandwidth_spread = 0;  // bytes/s
};

// Which reliability metric decides first; the other breaks ties. The paper
// sorts "using availability and trustfulness metrics" without saying which
// comes first.
enum class ReliabilityOrder { kAvailabilityFirst, kDistrustFirst };

struct RankOptions {
  double alpha = 1.0;            // weight of rrank in eq. 5
  double beta = 1.0;             // weight of prank in eq. 5
  double mu = 1.0;               // weight of ET in eq. 4
  double gamma = 1.0;            // weight of FTT in eq. 4
  uint64_t required_memory = 0;  // bytes the job needs; 0: no requirement
  double volume = 0;             // vol: bytes to move to the host for the job
  ReliabilityOrder order = ReliabilityOrder::kAvailabilityFirst;
};

struct HostRank {
  std::string name;
  double availability = 1;  // eq. 1
  int64_t distrust = 0;     // eq. 3
  Seconds ftt = 0;          // L + vol/B
  Seconds time = 0;         // eq. 4
  int rrank = 0;            // 1 = least reliable
  int prank = 0;            // 1 = slowest
  double grank = 0;         // eq. 5; highest is best
};

struct IneligibleHost {
  std::string name;
  std::string reason;
};

struct Ranking {
  // Best first: grank descending, then rrank descending, then Time
  // ascending, then name (so equal hosts come in a stable order).
  std::vector<HostRank> ranked;
  std::vector<IneligibleHost> ineligible;  // in input order
};

// Eq. 1. A host never checked (ta = 0) has no evidence against it and
// counts as fully available, as the paper starts every host "trustable"
// with a blank background.
double Availability(int64_t not_answered, int64_t attempts);

// Eq. 4 with FTT = L + vol/B.
Seconds FileTransferTime(const HostFacts& host, double volume);
Seconds PredictedTime(const HostFacts& host, const RankOptions& options);
// How far eq. 4's Time may be off from the measurements' spreads alone:
// gamma * (latency spread + vol * bandwidth spread / B^2), to first order.
Seconds PredictedTimeSpread(const HostFacts& host, const RankOptions& options);

// True when `a` is strictly more reliable than `b` under `order`.
// Availabilities are compared exactly (as fractions), not as doubles.
bool MoreReliable(const HostFacts& a, const HostFacts& b,
                  ReliabilityOrder order);

// Why `host` cannot be ranked (see RankHosts), or "" if it can.
std::string IneligibleReason(const HostFacts& host, const RankOptions& options);

// Ranks `hosts`. Ineligible: not enough free memory for the job, or
// inconsistent counts (na > ta, negative) which a damaged history could
// hold.
Ranking RankHosts(const std::vector<HostFacts>& hosts,
                  const RankOptions& options);

}  // namespace gs

#endif  // GSRT_RUNTIME_SCHED_HOST_RANKING_H_
