#include "runtime/policies_volatile.h"

#include <cmath>
#include <limits>

namespace gs {

VolatilePolicy::Measure VolatilePolicy::Evaluate(
    const std::vector<uint32_t>& x, OpId op, const Predictor& predictor) const {
  std::vector<HostStep> steps;
  Seconds work = 0;
  for (HostId h = 0; h < x.size(); ++h) {
    if (x[h] == 0) continue;
    work = std::max(work, x[h] * predictor.ExecTime(op, h));
    steps.push_back(hosts_ ? StepOf(hosts_->chain(h)) : HostStep{});
  }
  Seconds slot = hosts_ ? hosts_->slot() : 1;
  double w = std::ceil(work / slot - 1e-9);
  Measure m;
  m.p = SuccessProbability(steps, w);
  m.e = ExpectedSlots(steps, w) * slot;
  return m;
}

double VolatilePolicy::Score(const Measure& m, Seconds elapsed) const {
  switch (criterion_) {
    case VolatileCriterion::kP:
      return m.p;
    case VolatileCriterion::kE:
      return -m.e;
    case VolatileCriterion::kY:
      return m.p / (m.e + elapsed);
    case VolatileCriterion::kAY:
      return m.e > 0 ? m.p / m.e : m.p;
  }
  return 0;
}

Policy::Choice VolatilePolicy::Choose(const ReadyTask& task,
                                      const SlotBoard& board,
                                      const Predictor& predictor) {
  Choice best;
  double best_score = -std::numeric_limits<double>::infinity();
  std::vector<uint32_t> x(board.num_hosts(), 0);
  for (HostId h = 0; h < board.num_hosts(); ++h) {
    if (!board.usable(h) || !board.free_now(h)) continue;
    if (hosts_ && hosts_->state(h) != HostAvail::kUp) continue;
    x[h] = 1;
    Measure m = Evaluate(x, task.op, predictor);
    x[h] = 0;
    double s = Score(m, 0);
    if (s > best_score) {
      best_score = s;
      best = {h, board.now() + m.e};
    }
  }
  return best;
}

void VolatilePolicy::Place(const std::vector<ReadyTask>& ready,
                           const SchedulingInput& in,
                           std::vector<Placement>* out) {
  size_t m = hosts_ ? hosts_->tasks_per_configuration() : ready.size();
  if (m == 0 || ready.size() < m) return;
  // A new iteration when none of its tasks was seen before (a restart
  // after a failure keeps the iteration's start: the yield counts it).
  bool restart = false;
  for (size_t i = 0; i < m; ++i) restart |= seen_.count(ready[i].id) > 0;
  if (!restart) {
    seen_.clear();
    iteration_start_ = in.now;
  }
  for (size_t i = 0; i < m; ++i) seen_.insert(ready[i].id);
  const auto& hosts = *in.hosts;
  std::vector<int> free(hosts.size(), 0);
  for (HostId h = 0; h < hosts.size(); ++h) {
    if (hosts_ && hosts_->state(h) != HostAvail::kUp) continue;
    free[h] = hosts[h].free_slots();
  }
  std::vector<uint32_t> x(hosts.size(), 0);
  std::vector<HostId> chosen;
  Measure last;
  Seconds elapsed = in.now - iteration_start_;
  for (size_t i = 0; i < m; ++i) {
    HostId best = kNoHost;
    double best_score = -std::numeric_limits<double>::infinity();
    Measure best_m;
    for (HostId h = 0; h < hosts.size(); ++h) {
      if (static_cast<int>(x[h]) >= free[h]) continue;
      ++x[h];
      Measure me = Evaluate(x, ready[i].op, *in.predictor);
      --x[h];
      double s = Score(me, elapsed);
      if (s > best_score) {
        best_score = s;
        best = h;
        best_m = me;
      }
    }
    if (best == kNoHost) return;  // not enough UP slots: wait
    ++x[best];
    chosen.push_back(best);
    last = best_m;
  }
  for (size_t i = 0; i < m; ++i)
    out->push_back({ready[i].id, chosen[i], in.now + last.e});
}

std::unique_ptr<Policy> MakeVolatilePolicy(std::string_view name) {
  if (name == "ip")
    return std::make_unique<VolatilePolicy>("ip", VolatileCriterion::kP);
  if (name == "ie")
    return std::make_unique<VolatilePolicy>("ie", VolatileCriterion::kE);
  if (name == "iy")
    return std::make_unique<VolatilePolicy>("iy", VolatileCriterion::kY);
  if (name == "iay")
    return std::make_unique<VolatilePolicy>("iay", VolatileCriterion::kAY);
  return nullptr;
}

bool AttachVolatileHosts(Policy& policy, const VolatileHosts* hosts) {
  auto* v = dynamic_cast<VolatilePolicy*>(&policy);
  if (!v) return false;
  v->set_hosts(hosts);
  return true;
}

}  // namespace gs
