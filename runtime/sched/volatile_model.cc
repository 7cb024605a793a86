#include "runtime/sched/volatile_model.h"

#include <algorithm>
#include <array>
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
  // (1, 0) . Q^t . (1, 1)^T, Q the UP/RECLAIMED block (DOWN absorbing),
  // by repeated squaring: policies evaluate it per candidate host.
  using M = std::array<std::array<double, 2>, 2>;
  auto mul = [](const M& a, const M& b) {
    M r{};
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        r[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j];
    return r;
  };
  long t = static_cast<long>(std::ceil(std::max(0.0, slots) - 1e-9));
  M power = {{{c.p[0][0], c.p[0][1]}, {c.p[1][0], c.p[1][1]}}};
  M result = {{{1, 0}, {0, 1}}};
  for (; t > 0; t >>= 1) {
    if (t & 1) result = mul(result, power);
    power = mul(power, power);
  }
  return result[0][0] + result[0][1];
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
