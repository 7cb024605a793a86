#include "runtime/sched/learned_availability.h"

namespace gs {

LearnedAvailability::Host& LearnedAvailability::At(HostId h) {
  if (h >= hosts_.size()) hosts_.resize(h + 1);
  return hosts_[h];
}

void LearnedAvailability::Refit(Host& host) {
  for (int i = 0; i < 3; ++i) {
    double total = 0;
    for (int j = 0; j < 3; ++j) total += host.counts[i][j];
    for (int j = 0; j < 3; ++j) host.chain.p[i][j] = host.counts[i][j] / total;
  }
}

void LearnedAvailability::Seed(HostId h, int64_t attempts, int64_t not_answered,
                               int64_t losses) {
  if (attempts < 0 || not_answered < 0 || not_answered > attempts ||
      losses < 0 || attempts + losses == 0) {
    return;
  }
  Host& host = At(h);
  const int up = static_cast<int>(HostAvail::kUp);
  const int down = static_cast<int>(HostAvail::kDown);
  host.counts[up][up] += static_cast<double>(attempts - not_answered);
  host.counts[up][down] += static_cast<double>(not_answered + losses);
  host.counts[down][up] += static_cast<double>(not_answered + losses);
  Refit(host);
}

void LearnedAvailability::Observe(HostId h, HostAvail state) {
  Host& host = At(h);
  if (host.observed > 0) {
    host.counts[static_cast<int>(host.last)][static_cast<int>(state)] += 1;
    Refit(host);
  }
  host.last = state;
  ++host.observed;
}

void LearnedAvailability::ObserveChange(HostId h, HostAvail state) {
  if (state == this->state(h)) return;
  // Hosts start UP (connected): a change before the first slot is one.
  if (observations(h) == 0) Observe(h, this->state(h));
  Observe(h, state);
}

uint64_t LearnedAvailability::observations(HostId h) const {
  return h < hosts_.size() ? hosts_[h].observed : 0;
}

const AvailabilityChain& LearnedAvailability::chain(HostId h) const {
  static const AvailabilityChain kAlwaysUp;  // the identity
  return h < hosts_.size() ? hosts_[h].chain : kAlwaysUp;
}

HostAvail LearnedAvailability::state(HostId h) const {
  return h < hosts_.size() ? hosts_[h].last : HostAvail::kUp;
}

}  // namespace gs
