#include "runtime/deploy/deploy_rank.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "adapters/batch/queue_wait_estimate.h"
#include "runtime/base/asio_clock.h"
#include "runtime/base/units.h"
#include "runtime/deploy/deploy_context.h"

namespace gs {

namespace {

// Observations per (operation, host) the estimator keeps, as the engine.
constexpr int kEtWindow = 20;

template <typename T>
const T* FindByHost(const std::vector<T>& items, const std::string& host) {
  for (const T& item : items) {
    if (item.host == host) return &item;
  }
  return nullptr;
}

// A batch host's expected queue wait and what it comes from: the batch
// system's estimate of the newest probe while the start it promised is
// still ahead, else the history's waits of jobs of the host's size
// (queue_wait_estimate.h), else whatever the probe said.
struct RankedWait {
  Seconds seconds = 0;
  std::string basis;
};
std::optional<RankedWait> RankQueueWait(const HostConfig& host,
                                        const HostProbeRecord* probe,
                                        const RankInputs& in) {
  const std::string system =
      host.adapters.empty()
          ? "batch"
          : std::string(AdapterKindName(host.adapters.front()));
  WaitEstimate from_system;
  from_system.basis = WaitBasis::kBatchSystem;
  if (probe != nullptr && probe->queue_wait &&
      probe->queue_wait_basis == from_system.Describe(system)) {
    const Seconds left = probe->time + *probe->queue_wait - in.now;
    if (left > 0) return RankedWait{left, probe->queue_wait_basis};
  }
  std::vector<SizedWait> waits;
  for (const QueueWait& w : in.queue_waits) {
    if (w.host == host.name) {
      waits.push_back(
          {{w.cores, w.nodes, w.walltime}, w.started - w.submitted});
    }
  }
  const WaitEstimate e = EstimateFromHistory(waits, BatchJobShape(host.batch));
  if (e.basis != WaitBasis::kNone) return RankedWait{e.seconds, e.Describe()};
  if (probe != nullptr && probe->queue_wait) {
    return RankedWait{*probe->queue_wait, probe->queue_wait_basis};
  }
  return std::nullopt;
}

}  // namespace

StatusOr<RankInputs> LoadRankInputs(History& history,
                                    const std::string& operation) {
  RankInputs in;
  auto reliability = history.LoadAllHostReliability();
  if (!reliability.ok()) return reliability.status();
  in.reliability = std::move(reliability).value();
  auto probes = history.LoadLatestProbes();
  if (!probes.ok()) return probes.status();
  in.probes = std::move(probes).value();
  auto waits = history.LoadQueueWaits("", 2000);
  if (!waits.ok()) return waits.status();
  in.queue_waits = std::move(waits).value();
  in.now = WallClockNow();
  if (!operation.empty()) {
    auto times = history.LoadExecTimes(kEtWindow);
    if (!times.ok()) return times.status();
    in.exec_times = std::move(times).value();
    auto volume = history.LoadMeanInputBytes(operation);
    if (!volume.ok()) return volume.status();
    in.mean_input_bytes = *volume;
  }
  return in;
}

std::string_view DeltaSourceName(DeltaSource source) {
  switch (source) {
    case DeltaSource::kNone:
      return "none";
    case DeltaSource::kQueueWait:
      return "queue_wait";
    case DeltaSource::kLoad:
      return "load";
  }
  return "?";
}

std::string_view EtBasisName(ExecTimeEstimator::Basis basis) {
  switch (basis) {
    case ExecTimeEstimator::Basis::kThisHost:
      return "this_host";
    case ExecTimeEstimator::Basis::kOtherHosts:
      return "other_hosts";
    case ExecTimeEstimator::Basis::kDefault:
      return "default";
  }
  return "?";
}

Seconds LoadDelay(Seconds et, double load1, uint32_t cores) {
  if (cores == 0 || et <= 0 || load1 < 0) return 0;
  return et * std::max(0.0, (load1 + 1) / cores - 1);
}

RankReport AssembleRanking(const std::vector<const HostConfig*>& hosts,
                           const RankInputs& inputs,
                           const RankRequest& request) {
  RankReport report;
  report.request = request;
  const std::string& op = request.operation;
  if (request.volume) {
    report.volume = *request.volume;
    report.volume_source = "--volume";
  } else if (inputs.mean_input_bytes) {
    report.volume = *inputs.mean_input_bytes;
    report.volume_source = "history: mean input of " + op + "'s jobs";
  } else {
    report.volume_source = "none";
  }

  ExecTimeEstimator estimator;
  estimator.Seed(inputs.exec_times);
  const std::optional<OpId> op_id =
      op.empty() ? std::nullopt : estimator.FindOp(op);
  if (!op.empty() && !op_id) {
    report.notes.push_back("no successful job of '" + op +
                           "' in the history: ET = 0 on every host");
  }

  std::vector<RankRow> rows;
  std::vector<HostFacts> facts;
  std::vector<std::string> never_probed, no_bandwidth, no_queue_wait;
  for (const HostConfig* host : hosts) {
    RankRow row;
    row.host = host->name;
    if (!host->adapters.empty()) {
      row.adapter = std::string(AdapterKindName(host->adapters.front()));
    }
    HostFacts& f = row.facts;
    f.name = host->name;
    if (const HostReliability* r = FindByHost(inputs.reliability, host->name)) {
      f.attempts = r->attempts;
      f.not_answered = r->not_answered;
      f.distrust = r->distrust;
    }
    const HostProbeRecord* p = FindByHost(inputs.probes, host->name);
    const bool shared = SharesMasterFiles(*host);
    if (p == nullptr) {
      never_probed.push_back(host->name);
    } else {
      row.probed_at = p->time;
      row.cores = p->cores;
      row.memory_total = p->memory_total;
      row.load1 = p->load1;
      f.free_memory = p->memory_available;
      f.latency = p->rtt.value_or(0);
      f.latency_spread = p->rtt_spread.value_or(0);
      if (!shared) {
        f.bandwidth = p->bandwidth.value_or(0);
        f.bandwidth_spread = p->bandwidth_spread.value_or(0);
      }
    }
    if (!shared && f.bandwidth <= 0 && report.volume > 0) {
      no_bandwidth.push_back(host->name);
    }
    if (op_id) {
      const std::optional<HostId> host_id = estimator.FindHost(host->name);
      const ExecTimeEstimator::Prediction et =
          estimator.Explain(*op_id, host_id.value_or(static_cast<HostId>(-1)));
      f.et = et.seconds;
      row.et_basis = et.basis;
      row.et_samples = et.samples;
    }
    if (IsBatchHost(*host)) {
      if (auto wait = RankQueueWait(*host, p, inputs)) {
        f.queue_wait = wait->seconds;
        row.delta_source = DeltaSource::kQueueWait;
        row.delta_basis = wait->basis;
      } else {
        no_queue_wait.push_back(host->name);
      }
    } else if (p != nullptr && p->cores && p->load1) {
      f.queue_wait = LoadDelay(f.et, *p->load1, *p->cores);
      row.delta_source = DeltaSource::kLoad;
    }
    facts.push_back(f);
    rows.push_back(std::move(row));
  }

  // A host not measured must not win on missing data: as ET's rule 2, it
  // gets the mean of the hosts where the figure was measured.
  double latency_sum = 0, bandwidth_sum = 0;
  int latencies = 0, bandwidths = 0;
  for (const RankRow& row : rows) {
    if (row.probed_at) {
      latency_sum += row.facts.latency;
      ++latencies;
    }
    if (row.facts.bandwidth > 0) {
      bandwidth_sum += row.facts.bandwidth;
      ++bandwidths;
    }
  }
  for (size_t i = 0; i < rows.size(); ++i) {
    if (!rows[i].probed_at && latencies > 0) {
      facts[i].latency = rows[i].facts.latency = latency_sum / latencies;
    }
    if (!SharesMasterFiles(*hosts[i]) && rows[i].facts.bandwidth <= 0 &&
        bandwidths > 0) {
      facts[i].bandwidth = rows[i].facts.bandwidth = bandwidth_sum / bandwidths;
    }
  }

  auto list = [](const std::vector<std::string>& names) {
    std::string text;
    for (const std::string& n : names) text += (text.empty() ? "" : ", ") + n;
    return text;
  };
  if (!never_probed.empty()) {
    report.notes.push_back(
        "no probe measured: " + list(never_probed) +
        " (never probed or never answered: memory and load unknown, round "
        "trip taken as the mean of the measured hosts; run gsdeploy probe)");
  }
  if (!no_bandwidth.empty()) {
    report.notes.push_back("bandwidth not measured: " + list(no_bandwidth) +
                           (bandwidths > 0
                                ? " (taken as the mean of the hosts measured)"
                                : " (their FTT leaves out vol/B)") +
                           "; run gsdeploy probe");
  }
  if (!no_queue_wait.empty()) {
    report.notes.push_back("queue wait unknown: " + list(no_queue_wait) +
                           " (delta = 0)");
  }

  RankOptions options;
  options.alpha = request.weights.alpha;
  options.beta = request.weights.beta;
  options.mu = request.weights.mu;
  options.gamma = request.weights.gamma;
  options.required_memory = request.required_memory;
  options.volume = report.volume;
  options.order = request.order;
  const Ranking ranking = RankHosts(facts, options);

  std::map<std::string, size_t> index;
  for (size_t i = 0; i < rows.size(); ++i) index[rows[i].host] = i;
  for (const HostRank& r : ranking.ranked) {
    RankRow row = rows[index.at(r.name)];
    row.rank = r;
    report.rows.push_back(std::move(row));
  }
  for (const IneligibleHost& h : ranking.ineligible) {
    RankRow row = rows[index.at(h.name)];
    row.ineligible = h.reason;
    report.rows.push_back(std::move(row));
  }
  return report;
}

}  // namespace gs
