#include "runtime/sched/host_ranking.h"

#include <algorithm>
#include <cstdio>

namespace gs {

namespace {

// Compares na_a/ta_a with na_b/ta_b exactly: -1 if a's unavailable share
// is smaller (a more available), 0 if equal, 1 if larger. ta = 0 counts as
// 0/1.
int CompareUnavailability(const HostFacts& a, const HostFacts& b) {
  __int128 na_a = a.attempts > 0 ? a.not_answered : 0;
  __int128 ta_a = a.attempts > 0 ? a.attempts : 1;
  __int128 na_b = b.attempts > 0 ? b.not_answered : 0;
  __int128 ta_b = b.attempts > 0 ? b.attempts : 1;
  __int128 lhs = na_a * ta_b;
  __int128 rhs = na_b * ta_a;
  return lhs < rhs ? -1 : (lhs > rhs ? 1 : 0);
}

std::string Megabytes(uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MB", bytes / 1e6);
  return text;
}

}  // namespace

std::string IneligibleReason(const HostFacts& host,
                             const RankOptions& options) {
  if (host.attempts < 0 || host.not_answered < 0 || host.distrust < 0 ||
      host.not_answered > host.attempts) {
    return "inconsistent reliability counts (" +
           std::to_string(host.not_answered) + " not answered of " +
           std::to_string(host.attempts) + " checks, distrust " +
           std::to_string(host.distrust) + "); check the history file";
  }
  if (options.required_memory > 0 && host.free_memory.has_value() &&
      *host.free_memory < options.required_memory) {
    return "not enough free memory: the job needs " +
           Megabytes(options.required_memory) + ", the host has " +
           Megabytes(*host.free_memory);
  }
  return "";
}

double Availability(int64_t not_answered, int64_t attempts) {
  if (attempts <= 0) return 1.0;
  return 1.0 - static_cast<double>(not_answered) / attempts;
}

Seconds FileTransferTime(const HostFacts& host, double volume) {
  Seconds ftt = host.latency;
  if (host.bandwidth > 0) ftt += volume / host.bandwidth;
  return ftt;
}

Seconds PredictedTime(const HostFacts& host, const RankOptions& options) {
  return options.mu * host.et +
         options.gamma * FileTransferTime(host, options.volume) +
         host.queue_wait;
}

Seconds PredictedTimeSpread(const HostFacts& host, const RankOptions& options) {
  Seconds spread = host.latency_spread;
  if (host.bandwidth > 0) {
    spread += options.volume * host.bandwidth_spread /
              (host.bandwidth * host.bandwidth);
  }
  return options.gamma * spread;
}

bool MoreReliable(const HostFacts& a, const HostFacts& b,
                  ReliabilityOrder order) {
  const int unavailability = CompareUnavailability(a, b);
  if (order == ReliabilityOrder::kAvailabilityFirst) {
    if (unavailability != 0) return unavailability < 0;
    return a.distrust < b.distrust;
  }
  if (a.distrust != b.distrust) return a.distrust < b.distrust;
  return unavailability < 0;
}

Ranking RankHosts(const std::vector<HostFacts>& hosts,
                  const RankOptions& options) {
  Ranking result;
  std::vector<const HostFacts*> eligible;
  for (const HostFacts& host : hosts) {
    std::string reason = IneligibleReason(host, options);
    if (reason.empty()) {
      eligible.push_back(&host);
    } else {
      result.ineligible.push_back({host.name, std::move(reason)});
    }
  }

  // Counting pairwise is O(n^2), fine for the tens to few thousands of
  // hosts ranked once before a run, and makes ties share a rank trivially.
  const size_t n = eligible.size();
  std::vector<Seconds> times(n), spreads(n);
  for (size_t i = 0; i < n; ++i) {
    times[i] = PredictedTime(*eligible[i], options);
    spreads[i] = PredictedTimeSpread(*eligible[i], options);
  }
  result.ranked.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const HostFacts& h = *eligible[i];
    HostRank r;
    r.name = h.name;
    r.availability = Availability(h.not_answered, h.attempts);
    r.distrust = h.distrust;
    r.ftt = FileTransferTime(h, options.volume);
    r.time = times[i];
    r.rrank = 1;
    r.prank = 1;
    for (size_t j = 0; j < n; ++j) {
      if (MoreReliable(h, *eligible[j], options.order)) ++r.rrank;
      // Slower only beyond what the measurements' noise could explain.
      if (times[j] - times[i] > spreads[i] + spreads[j]) ++r.prank;
    }
    r.grank = options.alpha * r.rrank + options.beta * r.prank;
    result.ranked.push_back(std::move(r));
  }
  std::sort(result.ranked.begin(), result.ranked.end(),
            [](const HostRank& a, const HostRank& b) {
              if (a.grank != b.grank) return a.grank > b.grank;
              if (a.rrank != b.rrank) return a.rrank > b.rrank;
              if (a.time != b.time) return a.time < b.time;
              return a.name < b.name;
            });
  return result;
}

}  // namespace gs
