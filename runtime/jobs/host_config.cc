#include "runtime/jobs/host_config.h"

#include <algorithm>

namespace gs {

std::string_view AdapterKindName(AdapterKind kind) {
  switch (kind) {
    case AdapterKind::kLocal:
      return "local";
    case AdapterKind::kSsh:
      return "ssh";
    case AdapterKind::kSlurm:
      return "slurm";
    case AdapterKind::kPbs:
      return "pbs";
    case AdapterKind::kSim:
      return "sim";
  }
  return "?";
}

std::optional<AdapterKind> ParseAdapterKind(std::string_view name) {
  for (AdapterKind kind :
       {AdapterKind::kLocal, AdapterKind::kSsh, AdapterKind::kSlurm,
        AdapterKind::kPbs, AdapterKind::kSim}) {
    if (AdapterKindName(kind) == name) return kind;
  }
  return std::nullopt;
}

std::string_view HostKeyCheckName(HostKeyCheck check) {
  return check == HostKeyCheck::kStrict ? "strict" : "accept-new";
}

std::string_view BatchModeName(BatchMode mode) {
  switch (mode) {
    case BatchMode::kJob:
      return "job";
    case BatchMode::kPilot:
      return "pilot";
    case BatchMode::kAllocation:
      return "allocation";
  }
  return "job";
}

bool HostConfig::Uses(AdapterKind kind) const {
  return std::find(adapters.begin(), adapters.end(), kind) != adapters.end();
}

bool HostConfig::SlotsFromNodes() const {
  return slots == 0 && batch.mode == BatchMode::kAllocation &&
         adapters == std::vector<AdapterKind>{AdapterKind::kSlurm};
}

bool HostConfig::SlotsFromPilots() const {
  // Only when every adapter is a batch queue: a fallback needs slots.
  return slots == 0 && batch.mode == BatchMode::kPilot && !adapters.empty() &&
         std::all_of(adapters.begin(), adapters.end(), [](AdapterKind k) {
           return k == AdapterKind::kSlurm || k == AdapterKind::kPbs;
         });
}

// Hosts whose jobs reach an agent over a channel with a round trip: ssh,
// and the nodes of an allocation (srun).
bool HostConfig::HasRemoteAgent() const {
  if (adapters.empty()) return false;
  return adapters.front() == AdapterKind::kSsh ||
         (adapters.front() == AdapterKind::kSlurm &&
          batch.mode == BatchMode::kAllocation);
}

double HostConfig::PrefetchWindow() const {
  if (prefetch_window >= 0) return prefetch_window;
  if (!HasRemoteAgent()) return 0;
  // Covers a round trip of a few ms on a LAN many times over, while a job
  // queued behind others waits at most this long for its slot.
  return 0.02;
}

int HostConfig::PrefetchDepth() const {
  if (prefetch >= 0) return prefetch;
  if (!HasRemoteAgent()) return 0;
  return std::max(1, slots);
}

}  // namespace gs
