#include "runtime/engine/host_set.h"

#include <algorithm>

namespace gs {
namespace {

HostAvail AvailOf(HealthState health) {
  switch (health) {
    case HealthState::kUp:
      return HostAvail::kUp;
    case HealthState::kSuspect:  // there, but not answering us for now
      return HostAvail::kReclaimed;
    case HealthState::kDown:
      return HostAvail::kDown;
  }
  return HostAvail::kDown;
}

}  // namespace

void HostSet::Add(std::unique_ptr<HostEntry> host) {
  any_prefetch_ = any_prefetch_ || host->prefetch > 0;
  hosts_.push_back(std::move(host));
}

HealthState HostSet::HealthOf(HostId h) const {
  const HostEntry& host = *hosts_[h];
  HealthInput in;
  in.usable = host.usable;
  in.connected = host.adapter->connected();
  in.now = clock_->Now();
  in.last_heard = host.adapter->last_heard();
  in.heartbeat_interval = host.adapter->heartbeat_interval();
  in.rtt_bound = rtt_bound_;
  return ClassifyHealth(in);
}

std::vector<HostSet::HealthChange> HostSet::TakeHealthChanges() {
  std::vector<HealthChange> changes;
  health_seen_.resize(hosts_.size(), HealthState::kUp);
  for (HostId h = 0; h < hosts_.size(); ++h) {
    const HealthState now = HealthOf(h);
    const HealthState before = health_seen_[h];
    if (now == before) continue;
    health_seen_[h] = now;
    const HostEntry& host = *hosts_[h];
    if (now == HealthState::kSuspect) {
      const int silent =
          static_cast<int>(clock_->Now() - host.adapter->last_heard());
      changes.push_back({h, now,
                         "host " + host.name + " is suspect: silent for " +
                             std::to_string(silent) +
                             " s (missed a heartbeat)"});
    } else if (now == HealthState::kUp && before == HealthState::kSuspect) {
      changes.push_back({h, now, "host " + host.name + " answers again"});
    }
  }
  return changes;
}

void HostSet::ObserveAvailability() {
  for (HostId h = 0; h < hosts_.size(); ++h) {
    availability_->Observe(h, AvailOf(HealthOf(h)));
  }
}

void HostSet::ObserveChange(HostId h, HostAvail state) {
  if (availability_) availability_->ObserveChange(h, state);
}

void HostSet::LearnCapacity(HostEntry& host, std::optional<int> free_slots) {
  if (host.learns_cores) {
    const int offered = host.adapter->core_capacity();
    const int free = free_slots ? *free_slots : host.adapter->FreeSlots();
    host.cores = std::max(1, offered > 0 ? offered : free);
  }
  // A batch host's pilots: what their allocations show.
  if (host.gpus.learned()) host.gpus.Resize(host.adapter->gpu_capacity());
  // 0: not known, so not limited.
  if (host.learns_memory) {
    host.memory_gb = host.adapter->memory_capacity() / double(1 << 30);
  }
}

int HostSet::Slots(const HostEntry& host) {
  if (!host.learns_cores) return std::max(1, host.cores);
  return std::max(0, host.adapter->core_capacity());
}

void HostSet::FillHostState(const HostEntry& host, int free_slots,
                            HostState* state) {
  state->busy_until.clear();
  state->busy_needs.clear();
  state->usable = host.usable;
  state->memory_gb = host.memory_gb;
  state->gpus = host.gpus.size();
  // Jobs still staging their inputs hold cores the adapter does not know
  // about yet; adapters count free slots in cores.
  state->slots =
      static_cast<int>(host.running_cores - host.staging_cores) + free_slots;
}

void HostSet::HostStates(std::vector<HostState>* states) const {
  states->resize(hosts_.size());
  for (HostId h = 0; h < hosts_.size(); ++h) {
    FillHostState(*hosts_[h], hosts_[h]->adapter->FreeSlots(), &(*states)[h]);
  }
}

void HostSet::LearnHostStates(std::vector<HostState>* states) {
  states->resize(hosts_.size());
  for (HostId h = 0; h < hosts_.size(); ++h) {
    HostEntry& host = *hosts_[h];
    const int free_slots = host.adapter->FreeSlots();
    // Hosts sized by what they offer (pilots) may have grown or shrunk.
    if (host.learns_cores || host.gpus.learned()) {
      LearnCapacity(host, free_slots);
    }
    FillHostState(host, free_slots, &(*states)[h]);
  }
}

bool HostSet::AdaptersOfferSlots() const {
  for (const auto& host : hosts_) {
    if (host->usable && host->adapter->FreeSlots() > 0) return true;
  }
  return false;
}

bool HostSet::TransfersStable() const {
  for (const auto& host : hosts_) {
    if (host->adapter->expected_start_delay() != 0) return false;
  }
  return true;
}

std::vector<HostId> HostSet::Order(bool by_success) const {
  // A host with no finished job yet counts as reliable; ties keep the
  // index order (WQR-FT).
  std::vector<HostId> order(hosts_.size());
  for (HostId h = 0; h < hosts_.size(); ++h) order[h] = h;
  if (by_success) {
    auto rate = [this](HostId h) {
      const HostEntry& e = *hosts_[h];
      return (e.jobs_ok + 1.0) / (e.jobs_finished + 1.0);
    };
    std::stable_sort(order.begin(), order.end(),
                     [&](HostId a, HostId b) { return rate(a) > rate(b); });
  }
  return order;
}

}  // namespace gs
