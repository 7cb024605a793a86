// The probing role of the adapter seam: what a host has and how far it is
// (gsdeploy probe, the grank policy). Part of Adapter (adapter.h).
#ifndef GSRT_ADAPTERS_HOST_PROBER_H_
#define GSRT_ADAPTERS_HOST_PROBER_H_

#include <cstdint>
#include <functional>
#include <string>

#include "runtime/base/clock.h"
#include "runtime/base/status.h"

namespace gs {

// What a probe of a host found.
struct HostProbe {
  Seconds rtt = 0;  // round trip of the check itself
  // Half the range of the round trips behind `rtt` when it is their
  // median (gsdeploy probe); 0 for a single sample.
  Seconds rtt_spread = 0;
  uint32_t cores = 0;
  uint64_t memory_total = 0;      // bytes
  uint64_t memory_available = 0;  // bytes
  double load1 = 0;               // 1-minute load average
  double bandwidth = 0;         // bytes/s of a timed transfer; 0 = not measured
  double bandwidth_spread = 0;  // distance to the transfer before, bytes/s
  Seconds queue_wait = -1;      // expected wait of a batch queue; -1 = none
  // What `queue_wait` comes from ("slurm estimate", "history of 4 jobs of
  // this size", WaitEstimate::Describe); "" when none.
  std::string queue_wait_basis;
};

class HostProber {
 public:
  using ProbeCallback = std::function<void(StatusOr<HostProbe>)>;

  virtual ~HostProber() = default;

  // Asks the connected host for its facts (cores, memory, load) and times
  // the round trip. `done` fires once, later.
  virtual void Probe(ProbeCallback done) = 0;
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_HOST_PROBER_H_
