#include "runtime/sched/volatile_model.h"

#include <algorithm>
#include <cmath>

namespace gs {

HostStep StepOf(const AvailabilityChain& c) {
  const double uu = c.p[0][0], ur = c.p[0][1];
  const double ru = c.p[1][0], rr = c.p[1][1], rd = c.p[1][2];
  double r = ru + rd > 0 ? ru / (ru + rd) : 0;
  HostStep s;
  s.p = uu + ur * r;
  if (s.p <= 0) return {0, 1};
  double back = rr < 1 ? 1 + 1 / (1 - rr) : 1;
  s.t = (uu + ur * r * back) / s.p;
  return s;
}

double SuccessProbability(const std::vector<HostStep>& hosts, double w) {
  double p = 1;
  for (const HostStep& h : hosts) p *= std::pow(h.p, std::max(0.0, w - 1));
  return p;
}

double ExpectedSlots(const std::vector<HostStep>& hosts, double w) {
  double extra = 0;
  for (const HostStep& h : hosts) extra += h.t - 1;
  return 1 + std::max(0.0, w - 1) * (1 + extra);
}

double NotDownProbability(const AvailabilityChain& c, double slots) {
  const int t = static_cast<int>(std::ceil(std::max(0.0, slots) - 1e-9));
  // Row vector over (UP, RECLAIMED), starting UP; DOWN is absorbing here.
  double up = 1, reclaimed = 0;
  for (int i = 0; i < t; ++i) {
    const double u = up * c.p[0][0] + reclaimed * c.p[1][0];
    const double r = up * c.p[0][1] + reclaimed * c.p[1][1];
    up = u;
    reclaimed = r;
    if (up + reclaimed < 1e-300) return 0;
  }
  return up + reclaimed;
}

CommunicationMeasure Communication(const std::vector<CommunicationNeed>& hosts,
                                   uint32_t n_com) {
  CommunicationMeasure m;
  double total = 0;
  for (const CommunicationNeed& h : hosts) {
    total += h.slots;
    if (h.slots <= 0) continue;
    m.e = std::max(m.e, ExpectedSlots({StepOf(h.chain)}, h.slots));
  }
  if (n_com > 0 && hosts.size() > n_com) m.e = std::max(m.e, total / n_com);
  if (m.e <= 0) return m;
  for (const CommunicationNeed& h : hosts)
    m.p *= NotDownProbability(h.chain, m.e);
  return m;
}

}  // namespace gs
