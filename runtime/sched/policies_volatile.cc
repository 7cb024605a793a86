#include "runtime/sched/policies_volatile.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gs {

VolatilePolicy::Measure VolatilePolicy::Evaluate(
    const std::vector<uint32_t>& x, OpId op, const Predictor& predictor) const {
  std::vector<Seconds> load(x.size(), 0);
  for (HostId h = 0; h < x.size(); ++h)
    if (x[h]) load[h] = x[h] * predictor.ExecTime(op, h);
  return EvaluateLoad(x, load);
}

VolatilePolicy::Measure VolatilePolicy::EvaluateLoad(
    const std::vector<uint32_t>& x, const std::vector<Seconds>& load,
    const std::vector<Seconds>& inputs) const {
  std::vector<HostStep> steps;
  std::vector<CommunicationNeed> comm;
  Seconds work = 0;
  Seconds slot = hosts_ ? hosts_->slot() : 1;
  for (HostId h = 0; h < x.size(); ++h) {
    if (x[h] == 0) continue;
    work = std::max(work, load[h]);
    steps.push_back(hosts_ ? StepOf(hosts_->chain(h)) : HostStep{});
    if (hosts_) {
      double in = h < inputs.size() ? std::ceil(inputs[h] / slot - 1e-9) : 0;
      uint32_t held = std::min(x[h], hosts_->data_held(h));
      comm.push_back(
          {hosts_->chain(h), hosts_->program_slots(h) +
                                 (x[h] - held) * hosts_->data_slots() + in});
    }
  }
  double w = std::ceil(work / slot - 1e-9);
  // Section IV-B: the communication phase, then the computation.
  CommunicationMeasure c = Communication(comm, hosts_ ? hosts_->n_com() : 0);
  Measure m;
  m.p = c.p * SuccessProbability(steps, w);
  m.e = (c.e + ExpectedSlots(steps, w)) * slot;
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
    if (!board.Fits(h, task.need) || !board.FreeNowFor(h, task.need)) continue;
    if (hosts_ && hosts_->state(h) != HostAvail::kUp) continue;
    x[h] = 1;
    std::vector<Seconds> load(x.size(), 0), inputs(x.size(), 0);
    load[h] = predictor.ExecTime(task.op, h);
    inputs[h] = predictor.TransferTime(task.id, h);
    Measure m = EvaluateLoad(x, load, inputs);
    x[h] = 0;
    double s = Score(m, 0);
    if (s > best_score) {
      best_score = s;
      best = {h, board.now() + m.e};
    }
  }
  return best;
}

void VolatilePolicy::Place(std::span<const ReadyTask> ready,
                           const SchedulingInput& in,
                           std::vector<Placement>* out) {
  if (ready.empty()) return;
  // A configuration's tasks hold one Need (in the paper, one operation), so
  // a host's room is counted in jobs of that Need.
  const Need need = ready[0].need;
  const auto& hosts = *in.hosts;
  std::vector<int> free(hosts.size(), 0);
  size_t total_free = 0;
  for (HostId h = 0; h < hosts.size(); ++h) {
    if (hosts_ && hosts_->state(h) != HostAvail::kUp) continue;
    if (!need.Allows(h)) continue;
    free[h] = std::max(0, hosts[h].FreeFor(need));
    total_free += free[h];
  }
  size_t m = configuration_size();
  // Live: whatever is ready and fits, so a free slot is never left idle
  // while tasks wait; the leading tasks of the first task's Need only.
  if (m == 0) {
    size_t same = 0;
    while (same < ready.size() && ready[same].need == need) {
      ++same;
    }
    m = std::min(same, total_free);
  }
  if (m == 0 || ready.size() < m) return;
  // A new iteration when none of its tasks was seen before (a restart
  // after a failure keeps the iteration's start: the yield counts it).
  bool restart = false;
  for (size_t i = 0; i < m; ++i) restart |= seen_.count(ready[i].id) > 0;
  if (!restart) {
    seen_.clear();
    iteration_start_ = in.now;
  }
  std::vector<Member> members;
  for (size_t i = 0; i < m; ++i) {
    seen_.insert(ready[i].id);
    members.push_back({ready[i].id, ready[i].op});
  }
  Measure last;
  std::vector<HostId> chosen =
      Build(members, free, *in.predictor, in.now - iteration_start_, &last);
  if (chosen.size() < m) return;  // not enough UP slots: wait
  launched_ = in.now;
  launched_e_ = last.e;
  running_op_ = ready[0].op;
  need_ = need;
  for (size_t i = 0; i < m; ++i) {
    out->push_back({ready[i].id, chosen[i], in.now + last.e});
    // Only a live proactive policy reads them (and prunes them).
    if (configuration_size() == 0 && reconsider_period() > 0)
      launches_[ready[i].id] = {ready[i].op, in.now};
  }
}

std::vector<HostId> VolatilePolicy::Build(const std::vector<Member>& members,
                                          const std::vector<int>& free,
                                          const Predictor& predictor,
                                          Seconds elapsed,
                                          Measure* last) const {
  std::vector<uint32_t> x(free.size(), 0);
  std::vector<Seconds> load(free.size(), 0), inputs(free.size(), 0);
  std::vector<HostId> chosen;
  for (const Member& task : members) {
    HostId best = kNoHost;
    double best_score = -std::numeric_limits<double>::infinity();
    Measure best_m;
    for (HostId h = 0; h < free.size(); ++h) {
      if (static_cast<int>(x[h]) >= free[h]) continue;
      Seconds w = predictor.ExecTime(task.op, h);
      Seconds d = predictor.TransferTime(task.task, h);
      ++x[h];
      load[h] += w;
      inputs[h] += d;
      Measure me = EvaluateLoad(x, load, inputs);
      --x[h];
      load[h] -= w;
      inputs[h] -= d;
      double s = Score(me, elapsed);
      if (s > best_score) {
        best_score = s;
        best = h;
        best_m = me;
      }
    }
    if (best == kNoHost) break;
    ++x[best];
    load[best] += predictor.ExecTime(task.op, best);
    inputs[best] += predictor.TransferTime(task.task, best);
    chosen.push_back(best);
    *last = best_m;
  }
  return chosen;
}

VolatilePolicy::Measure ProactivePolicy::Current(
    const std::vector<Placement>& running, const std::vector<uint32_t>& x,
    const SchedulingInput& in) {
  const VolatileHosts* model = hosts();
  Seconds slot = model->slot();
  std::vector<HostStep> steps;
  for (HostId h = 0; h < x.size(); ++h)
    if (x[h]) steps.push_back(StepOf(model->chain(h)));
  Seconds work = 0;
  if (configuration_size() > 0) {
    // All tasks of a configuration are identical and started together:
    // the share of its launch-time E that has elapsed is done.
    OpId op = running_op_;
    double done = launched_e_ > 0 ? (in.now - launched_) / launched_e_ : 0;
    done = std::clamp(done, 0.0, 1.0);
    for (HostId h = 0; h < x.size(); ++h)
      if (x[h]) work = std::max(work, x[h] * in.predictor->ExecTime(op, h));
    work *= 1 - done;
  } else {
    std::vector<Seconds> left(x.size(), 0);
    for (const Placement& p : running) {
      auto it = launches_.find(p.task);
      if (it == launches_.end()) continue;
      Seconds w = in.predictor->ExecTime(it->second.op, p.host);
      left[p.host] += std::max<Seconds>(0, w - (in.now - it->second.at));
    }
    for (Seconds l : left) work = std::max(work, l);
  }
  double w_left = std::ceil(work / slot - 1e-9);
  return {SuccessProbability(steps, w_left),
          ExpectedSlots(steps, w_left) * slot};
}

std::vector<TaskId> ProactivePolicy::Reconsider(
    const std::vector<Placement>& running, const SchedulingInput& in) {
  const VolatileHosts* model = hosts();
  size_t m = configuration_size();
  if (!model || running.empty() || running.size() < m) return {};
  const bool live = m == 0;
  if (live) {
    // Forget what no longer runs; a task moved once stays where it is.
    std::unordered_map<TaskId, Launch> still;
    for (const Placement& p : running) {
      if (stopped_.count(p.task)) return {};
      if (auto it = launches_.find(p.task); it != launches_.end())
        still.insert(*it);
    }
    launches_ = std::move(still);
    if (launches_.size() < running.size()) return {};  // placed by others
  }
  const auto& states = *in.hosts;
  std::vector<uint32_t> x(states.size(), 0);
  for (const Placement& p : running) ++x[p.host];
  Measure current = Current(running, x, in);
  // A configuration from scratch: every UP host's slots, the running
  // configuration's included.
  std::vector<int> free(states.size(), 0);
  for (HostId h = 0; h < states.size(); ++h) {
    if (model->state(h) != HostAvail::kUp || !states[h].usable ||
        !need_.Allows(h))
      continue;
    free[h] = states[h].FreeFor(need_) + static_cast<int>(x[h]);
  }
  std::vector<Member> members;
  for (const Placement& p : running)
    members.push_back({p.task, live ? launches_[p.task].op : running_op_});
  Seconds elapsed = in.now - iteration_start();
  Measure fresh;
  std::vector<HostId> chosen =
      Build(members, free, *in.predictor, elapsed, &fresh);
  if (chosen.size() < running.size()) return {};
  std::vector<uint32_t> y(states.size(), 0);
  for (HostId h : chosen) ++y[h];
  if (y == x) return {};
  bool better = false;
  const double eps = 1e-12;
  switch (criterion_) {
    case VolatileCriterion::kP:
      better = fresh.p > current.p * (1 + 1e-9) + eps;
      break;
    case VolatileCriterion::kE:
      better = fresh.e < current.e * (1 - 1e-9);
      break;
    default:
      better = fresh.p / (fresh.e + elapsed) >
               current.p / (current.e + elapsed) * (1 + 1e-9);
      break;
  }
  if (!better) return {};
  ++reconfigurations_;
  std::vector<TaskId> out;
  for (const Placement& p : running) {
    out.push_back(p.task);
    if (live) stopped_.insert(p.task);
  }
  return out;
}

std::unique_ptr<Policy> MakeVolatilePolicy(std::string_view name) {
  auto dash = name.find('-');
  if (dash != std::string_view::npos) {
    std::string_view c = name.substr(0, dash), h = name.substr(dash + 1);
    VolatileCriterion crit;
    if (c == "p") {
      crit = VolatileCriterion::kP;
    } else if (c == "e") {
      crit = VolatileCriterion::kE;
    } else if (c == "y") {
      crit = VolatileCriterion::kY;
    } else {
      return nullptr;
    }
    auto passive = MakeVolatilePolicy(h);
    if (!passive) return nullptr;
    auto* v = static_cast<VolatilePolicy*>(passive.get());
    return std::make_unique<ProactivePolicy>(std::string(name), v->criterion(),
                                             crit);
  }
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

const VolatileHosts* AttachedVolatileHosts(const Policy& policy) {
  auto* v = dynamic_cast<const VolatilePolicy*>(&policy);
  return v ? v->volatile_hosts() : nullptr;
}

}  // namespace gs
