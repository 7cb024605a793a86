#include "runtime/sched/volatile_model.h"

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

}  // namespace gs
