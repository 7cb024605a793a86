// Predicted time to move data between the master and a host: latency plus
// size over bandwidth (paper 004's FTT = L + vol/B), learned from the
// transfers the engine makes. Pure: times come from the caller.
#ifndef GSRT_RUNTIME_SCHED_LINK_MODEL_H_
#define GSRT_RUNTIME_SCHED_LINK_MODEL_H_

#include <cstdint>
#include <vector>

#include "runtime/base/clock.h"

namespace gs {

struct LinkEstimate {
  Seconds latency = 0.001;        // until measured: a LAN's millisecond
  double bytes_per_second = 1e8;  // until measured: ~100 MB/s
  int latency_samples = 0;
  int bandwidth_samples = 0;
  int samples() const { return latency_samples + bandwidth_samples; }
};

class LinkModel {
 public:
  // Hosts that share the master's files cost nothing to reach.
  void AddHost(bool shared) { links_.push_back({shared, {}}); }

  // One transfer of `bytes` to or from `host` took `seconds`. Small
  // transfers teach latency, large ones bandwidth (exponential averages,
  // so a link that changes speed is followed).
  void Observe(uint32_t host, uint64_t bytes, Seconds seconds);

  // Predicted seconds to move `bytes` between the master and `host`.
  Seconds Time(uint32_t host, uint64_t bytes) const;

  const LinkEstimate& estimate(uint32_t host) const {
    return links_[host].estimate;
  }

 private:
  struct Link {
    bool shared;
    LinkEstimate estimate;
  };
  std::vector<Link> links_;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_SCHED_LINK_MODEL_H_
