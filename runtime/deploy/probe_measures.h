// How `gsdeploy probe` turns repeated measurements of a host into one
// figure and its spread, so that one noisy sample does not decide a
// ranking (issue 36). Pure: no I/O, no clock.
//
// Round trips: kRoundTrips samples; the figure is their median, the spread
// half their range. Bandwidth: timed transfers of growing size (doubling
// from ProbeOptions::transfer_bytes) until one lasts at least
// kMinTransferSeconds and its rate agrees with the previous one within
// kRateAgreement, or the size reaches the cap; the figure is the last
// rate, the spread its distance to the one before.
#ifndef GSRT_RUNTIME_DEPLOY_PROBE_MEASURES_H_
#define GSRT_RUNTIME_DEPLOY_PROBE_MEASURES_H_

#include <cstdint>
#include <vector>

#include "runtime/base/clock.h"

namespace gs {

inline constexpr int kRoundTrips = 5;
inline constexpr Seconds kMinTransferSeconds = 1.0;
inline constexpr double kRateAgreement = 0.25;  // relative

struct Measure {
  double value = 0;
  double spread = 0;  // half the range of the samples behind `value`
};

// Median and half-range of `samples` (not empty).
Measure SummarizeSamples(std::vector<double> samples);

struct TransferSample {
  uint64_t bytes = 0;
  Seconds seconds = 0;  // streaming time (the round trip taken off)
  double rate() const;  // bytes/s
};

// The size of the next timed transfer, or 0 when `done` (not empty)
// suffices: the last lasted kMinTransferSeconds and agrees with the one
// before within kRateAgreement, or the next would exceed `max_bytes`.
uint64_t NextTransferBytes(const std::vector<TransferSample>& done,
                           uint64_t max_bytes);

// The bandwidth `done` (not empty) measured: the last rate, spread to the
// one before (0 with a single transfer).
Measure BandwidthOf(const std::vector<TransferSample>& done);

}  // namespace gs

#endif  // GSRT_RUNTIME_DEPLOY_PROBE_MEASURES_H_
