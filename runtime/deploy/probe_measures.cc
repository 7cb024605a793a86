#include "runtime/deploy/probe_measures.h"

#include <algorithm>
#include <cmath>

namespace gs {

Measure SummarizeSamples(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  const size_t n = samples.size();
  Measure m;
  m.value = n % 2 == 1 ? samples[n / 2]
                       : (samples[n / 2 - 1] + samples[n / 2]) / 2;
  m.spread = (samples.back() - samples.front()) / 2;
  return m;
}

double TransferSample::rate() const {
  return static_cast<double>(bytes) / std::max(seconds, 1e-6);
}

uint64_t NextTransferBytes(const std::vector<TransferSample>& done,
                           uint64_t max_bytes) {
  const TransferSample& last = done.back();
  if (done.size() >= 2 && last.seconds >= kMinTransferSeconds) {
    const double before = done[done.size() - 2].rate();
    if (std::abs(last.rate() - before) <= kRateAgreement * last.rate()) {
      return 0;
    }
  }
  // Long enough but not yet agreeing: the same size again; too short:
  // twice the size, so that fixed costs weigh less.
  const uint64_t next =
      last.seconds >= kMinTransferSeconds ? last.bytes : 2 * last.bytes;
  return next <= max_bytes && done.size() < 8 ? next : 0;
}

Measure BandwidthOf(const std::vector<TransferSample>& done) {
  Measure m;
  m.value = done.back().rate();
  if (done.size() >= 2) m.spread = std::abs(m.value - done[done.size() - 2].rate());
  return m;
}

}  // namespace gs
