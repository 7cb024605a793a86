#include "adapters/batch/queue_wait_estimate.h"

#include <algorithm>

namespace gs {

namespace {

// Within a factor of two of each other (both positive).
bool Near(double a, double b) { return a <= 2 * b && b <= 2 * a; }

}  // namespace

std::string WaitEstimate::Describe(std::string_view system) const {
  switch (basis) {
    case WaitBasis::kNone:
      return "unknown";
    case WaitBasis::kBatchSystem:
      return std::string(system) + " estimate";
    case WaitBasis::kHistoryBySize:
      return "history of " + std::to_string(samples) + " job" +
             (samples == 1 ? "" : "s") + " of this size";
    case WaitBasis::kHistory:
      return "history of " + std::to_string(samples) + " job" +
             (samples == 1 ? "" : "s") + " of other sizes";
  }
  return "?";
}

JobShape BatchJobShape(const BatchConfig& config, int cores) {
  JobShape shape;
  shape.cores = std::max({1, cores, config.cpus_per_task});
  shape.walltime = config.walltime;
  return shape;
}

bool SameSize(const JobShape& a, const JobShape& b) {
  if (a.nodes != b.nodes) return false;
  if (!Near(std::max(1, a.cores), std::max(1, b.cores))) return false;
  if ((a.walltime > 0) != (b.walltime > 0)) return false;
  return a.walltime <= 0 || Near(a.walltime, b.walltime);
}

WaitEstimate EstimateFromHistory(const std::vector<SizedWait>& newest_first,
                                 const JobShape& shape, int limit) {
  auto mean_of = [&](bool by_size, WaitBasis basis) {
    WaitEstimate e;
    double sum = 0;
    for (const SizedWait& w : newest_first) {
      if (e.samples >= limit) break;
      if (by_size && !SameSize(w.shape, shape)) continue;
      sum += std::max<Seconds>(0, w.wait);
      ++e.samples;
    }
    if (e.samples > 0) {
      e.seconds = sum / e.samples;
      e.basis = basis;
    }
    return e;
  };
  if (WaitEstimate e = mean_of(true, WaitBasis::kHistoryBySize); e.samples)
    return e;
  return mean_of(false, WaitBasis::kHistory);
}

WaitEstimate EstimateQueueWait(std::optional<Seconds> system_start, Seconds now,
                               const WaitEstimate& from_history) {
  if (!system_start) return from_history;
  WaitEstimate e;
  e.seconds = std::max<Seconds>(0, *system_start - now);
  e.basis = WaitBasis::kBatchSystem;
  return e;
}

}  // namespace gs
