#include "runtime/sched/link_model.h"

#include <algorithm>
#include <cmath>

namespace gs {

namespace {
// Below this, a transfer's time is mostly latency.
constexpr uint64_t kSmallTransfer = 64 * 1024;
// Weight of a new sample in the averages.
constexpr double kAlpha = 0.3;
}  // namespace

void LinkModel::Observe(uint32_t host, uint64_t bytes, Seconds seconds) {
  Link& link = links_[host];
  if (link.shared || !(seconds >= 0) || !std::isfinite(seconds)) return;
  LinkEstimate& e = link.estimate;
  if (bytes < kSmallTransfer) {
    e.latency = e.latency_samples++ == 0
                    ? seconds
                    : (1 - kAlpha) * e.latency + kAlpha * seconds;
  } else {
    double transfer = std::max(seconds - e.latency, 1e-6);
    double rate = static_cast<double>(bytes) / transfer;
    e.bytes_per_second =
        e.bandwidth_samples++ == 0
            ? rate
            : (1 - kAlpha) * e.bytes_per_second + kAlpha * rate;
  }
}

Seconds LinkModel::Time(uint32_t host, uint64_t bytes) const {
  const Link& link = links_[host];
  if (link.shared) return 0;
  return link.estimate.latency +
         static_cast<double>(bytes) / link.estimate.bytes_per_second;
}

}  // namespace gs
