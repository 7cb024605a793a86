// `gsdeploy rank`: builds each configured host's HostFacts from the
// history and ranks them with runtime/sched/host_ranking.h (paper 004 eq.
// 1-5; the one implementation, also behind the runtime's grank policy).
// Where each input comes from (ta, na and trv from the host's checks and
// failures; memory, L and B from its newest probe; ET and vol from the
// operation's successful jobs; delta from the queue wait or the load; a
// host without L or B gets the mean of those measured): docs/gsdeploy.md,
// "gsdeploy rank".
#ifndef GSRT_RUNTIME_DEPLOY_DEPLOY_RANK_H_
#define GSRT_RUNTIME_DEPLOY_DEPLOY_RANK_H_

#include <optional>
#include <string>
#include <vector>

#include "runtime/config/config.h"
#include "runtime/history/history.h"
#include "runtime/history/history_records.h"
#include "runtime/sched/exec_time_estimator.h"
#include "runtime/sched/host_ranking.h"

namespace gs {

struct RankRequest {
  std::string operation;         // "" ranks without ET (ET = 0)
  uint64_t required_memory = 0;  // bytes; 0: no requirement
  std::optional<double> volume;  // bytes; nullopt: from the history
  RankWeights weights;           // alpha, beta, mu, gamma
  ReliabilityOrder order = ReliabilityOrder::kAvailabilityFirst;
};

// What the history holds that a ranking reads.
struct RankInputs {
  std::vector<HostReliability> reliability;
  std::vector<HostProbeRecord> probes;  // newest per host
  std::vector<ExecTimeSample> exec_times;
  std::optional<double> mean_input_bytes;  // of the request's operation
  std::vector<QueueWait> queue_waits;      // newest first, every host
  Seconds now = 0;                         // when they were read
};

// Reads the inputs for `operation` ("" reads no job data).
StatusOr<RankInputs> LoadRankInputs(History& history,
                                    const std::string& operation);

enum class DeltaSource { kNone, kQueueWait, kLoad };
std::string_view DeltaSourceName(DeltaSource source);  // "none", ...
std::string_view EtBasisName(ExecTimeEstimator::Basis basis);

struct RankRow {
  std::string host;
  std::string adapter;  // the configured (first) adapter kind
  HostFacts facts;      // exactly what RankHosts was given
  // From the newest probe; nullopt when never probed or not measured.
  std::optional<Seconds> probed_at;
  std::optional<uint32_t> cores;
  std::optional<uint64_t> memory_total;
  std::optional<double> load1;
  ExecTimeEstimator::Basis et_basis = ExecTimeEstimator::Basis::kDefault;
  int et_samples = 0;
  DeltaSource delta_source = DeltaSource::kNone;
  // For a queue wait: what it comes from ("slurm estimate", "history of 3
  // jobs of this size"; WaitEstimate::Describe).
  std::string delta_basis;
  std::optional<HostRank> rank;  // set for eligible hosts
  std::string ineligible;        // the reason, for the others
};

struct RankReport {
  RankRequest request;
  double volume = 0;          // vol used for every host
  std::string volume_source;  // "--volume", "history (mean of ...)", "none"
  // Eligible hosts best first (grank descending), then ineligible ones in
  // configuration order.
  std::vector<RankRow> rows;
  // Caveats a user should know (hosts never probed, ET unknown, ...).
  std::vector<std::string> notes;
};

// The extra seconds a job of `et` seconds waits for CPU on a host with
// `cores` cores and 1-minute load `load1`: sharing the cores with load1
// others, it gets cores/(load1+1) of a core when load1+1 > cores, so it
// runs ET*(load1+1)/cores. Returns ET*max(0, (load1+1)/cores - 1); 0 when
// cores is 0 (unknown).
Seconds LoadDelay(Seconds et, double load1, uint32_t cores);

// Pure: the ranking of `hosts` from `inputs` for `request`.
RankReport AssembleRanking(const std::vector<const HostConfig*>& hosts,
                           const RankInputs& inputs,
                           const RankRequest& request);

}  // namespace gs

#endif  // GSRT_RUNTIME_DEPLOY_DEPLOY_RANK_H_
