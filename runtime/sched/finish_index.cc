#include "runtime/sched/finish_index.h"

#include <algorithm>
#include <cmath>

namespace gs {

void FinishIndex::Build(const SlotBoard& board, const Predictor& predictor) {
  board_ = &board;
  predictor_ = &predictor;
  const size_t n = board.num_hosts();
  const std::span<const double> speeds = predictor.speeds();
  model_ = n > 0 && speeds.size() >= n;
  for (size_t h = 0; model_ && h < n; ++h)
    model_ = speeds[h] > 0 && std::isfinite(speeds[h]);
  if (!model_) return;
  if (speeds_.size() != n ||
      !std::equal(speeds_.begin(), speeds_.end(), speeds.begin())) {
    GroupBySpeed(speeds.first(n));
  }
  // Each group back in order of earliest slot: an insertion sort from the
  // previous round's order, where only the hosts whose jobs started or
  // ended since are out of place.
  for (const Group& g : groups_) {
    for (uint32_t i = g.begin + 1; i < g.end; ++i) {
      const HostId h = members_[i];
      uint32_t p = i;
      for (; p > g.begin && Before(h, members_[p - 1]); --p)
        members_[p] = members_[p - 1];
      members_[p] = h;
    }
    for (uint32_t i = g.begin; i < g.end; ++i) position_[members_[i]] = i;
  }
  least_earliest_ = std::numeric_limits<Seconds>::infinity();
  for (const Group& g : groups_)
    least_earliest_ = std::min(least_earliest_, EarliestOf(members_[g.begin]));
  inverse_lower_ = groups_.empty() ? 0 : groups_.front().inverse_lower;
}

Seconds FinishIndex::QuickBound(const ReadyTask& task) const {
  const Seconds work = model_ ? predictor_->Work(task.op) : -1;
  if (!(work >= 0) || !std::isfinite(work))
    return -std::numeric_limits<Seconds>::infinity();
  return least_earliest_ + work * inverse_lower_;
}

void FinishIndex::GroupBySpeed(std::span<const double> speeds) {
  const size_t n = speeds.size();
  speeds_.assign(speeds.begin(), speeds.end());
  members_.resize(n);
  for (HostId h = 0; h < n; ++h) members_[h] = h;
  std::sort(members_.begin(), members_.end(), [&](HostId a, HostId b) {
    return speeds[a] != speeds[b] ? speeds[a] > speeds[b] : a < b;
  });
  const size_t size = std::max<size_t>(
      8, static_cast<size_t>(std::sqrt(static_cast<double>(n))));
  position_.resize(n);
  group_of_.resize(n);
  groups_.clear();
  for (size_t begin = 0; begin < n; begin += size) {
    const size_t end = std::min(n, begin + size);
    // 1 / fastest made a little smaller: w * it is below w / speed for
    // every host of the group, whatever the rounding (a multiplication
    // per group and task instead of a division).
    groups_.push_back({static_cast<uint32_t>(begin), static_cast<uint32_t>(end),
                       (1 / speeds[members_[begin]]) * (1 - 1e-12)});
    for (size_t i = begin; i < end; ++i)
      group_of_[members_[i]] = static_cast<uint32_t>(groups_.size() - 1);
  }
  bounds_.reserve(groups_.size());
}

void FinishIndex::Moved(HostId h) {
  if (!model_) return;
  const Group& g = groups_[group_of_[h]];
  uint32_t p = position_[h];
  while (p + 1 < g.end && Before(members_[p + 1], h)) {
    members_[p] = members_[p + 1];
    position_[members_[p]] = p;
    ++p;
  }
  while (p > g.begin && Before(h, members_[p - 1])) {
    members_[p] = members_[p - 1];
    position_[members_[p]] = p;
    --p;
  }
  members_[p] = h;
  position_[h] = p;
}

FinishIndex::Best FinishIndex::Scan(const ReadyTask& task,
                                    bool prefer_free) const {
  // The policies' original loops, kept literally (their tie rules).
  Best best;
  for (HostId h = 0; h < board_->num_hosts(); ++h) {
    if (!board_->Fits(h, task.need)) continue;
    Seconds end = board_->EarliestFor(h, task.need) +
                  predictor_->ExecTime(task.op, h) +
                  predictor_->TransferTime(task.id, h);
    if (end < best.end) {
      best = {h, end, board_->FreeNowFor(h, task.need)};
    } else if (prefer_free && end == best.end && !best.free &&
               board_->FreeNowFor(h, task.need)) {
      best = {h, end, true};
    }
  }
  return best;
}

// The bounded search shared by Find and FindLeastTime. `cost` gives a
// host's value (`Value(h, &free)`), a lower bound of it for any host of a
// group from the host's earliest slot and the group's least execution time
// (`Bound`), and the order among equal values (`Before`); the least value
// wins.
template <typename Cost>
FinishIndex::Best FinishIndex::Search(Seconds work, const Cost& cost) {
  // Each group's bound; the least-bound group is searched first (it
  // usually holds the answer or near it), then the others in speed order,
  // skipping those whose bound exceeds the best so far.
  const Seconds kInf = std::numeric_limits<Seconds>::infinity();
  bounds_.resize(groups_.size());
  uint32_t first_group = 0;
  for (uint32_t g = 0; g < groups_.size(); ++g) {
    const Seconds first = EarliestOf(members_[groups_[g].begin]);
    const Seconds least_exec = work * groups_[g].inverse_lower;
    bounds_[g] = {first == kInf ? kInf : cost.Bound(first, least_exec),
                  least_exec};
    if (bounds_[g].first < bounds_[first_group].first) first_group = g;
  }
  Best best;
  auto search_group = [&](uint32_t g) {
    const Seconds least_exec = bounds_[g].second;
    for (uint32_t i = groups_[g].begin; i < groups_[g].end; ++i) {
      const HostId h = members_[i];
      // Ordered by earliest: the rest of the group costs no less.
      const Seconds earliest = EarliestOf(h);
      if (earliest == kInf || cost.Bound(earliest, least_exec) > best.end)
        break;
      bool free = false;
      Seconds value;
      if (!cost.Value(h, &value, &free) || value > best.end) continue;
      if (value < best.end || best.host == kNoHost ||
          cost.Before(h, free, best.host, best.free))
        best = {h, value, free};
    }
  };
  if (groups_.empty() || bounds_[first_group].first == kInf) return best;
  search_group(first_group);
  for (uint32_t g = 0; g < groups_.size(); ++g) {
    if (g != first_group && bounds_[g].first <= best.end) search_group(g);
  }
  return best;
}

FinishIndex::Best FinishIndex::Find(const ReadyTask& task, bool prefer_free) {
  const Seconds work = model_ ? predictor_->Work(task.op) : -1;
  if (!(work >= 0) || !std::isfinite(work)) return Scan(task, prefer_free);
  struct End {
    const FinishIndex& index;
    const ReadyTask& task;
    bool prefer_free;
    Seconds Bound(Seconds earliest, Seconds least_exec) const {
      return earliest + least_exec;
    }
    bool Value(HostId h, Seconds* end, bool* free) const {
      if (!index.board_->Fits(h, task.need)) return false;
      *end = index.board_->EarliestFor(h, task.need) +
             index.predictor_->ExecTime(task.op, h) +
             index.predictor_->TransferTime(task.id, h);
      *free = index.board_->FreeNowFor(h, task.need);
      return true;
    }
    bool Before(HostId a, bool a_free, HostId b, bool b_free) const {
      if (prefer_free && a_free != b_free) return a_free;
      return a < b;
    }
  };
  return Search(work, End{*this, task, prefer_free});
}

FinishIndex::Best FinishIndex::FindLeastTime(
    const ReadyTask& task, double mu, double gamma,
    const std::vector<bool>& allowed, const std::vector<uint32_t>& tie_order) {
  const Seconds work = model_ ? predictor_->Work(task.op) : -1;
  if (!(work >= 0) || !std::isfinite(work) || !(mu >= 0) || !(gamma >= 0))
    return {};
  struct Time {
    const FinishIndex& index;
    const ReadyTask& task;
    double mu, gamma;
    const std::vector<bool>& allowed;
    const std::vector<uint32_t>& tie_order;
    // mu * ET >= mu * (least ET), gamma * FTT >= 0 and the wait is at
    // least the one for the earliest slot; rounding keeps the order.
    Seconds Bound(Seconds earliest, Seconds least_exec) const {
      return mu * least_exec + std::max(0.0, earliest - index.board_->now());
    }
    bool Value(HostId h, Seconds* time, bool* free) const {
      if (!allowed[h] || !index.board_->Fits(h, task.need)) return false;
      const Seconds et = index.predictor_->ExecTime(task.op, h);
      const Seconds ftt = index.predictor_->TransferTime(task.id, h);
      const Seconds wait = std::max(
          0.0, index.board_->EarliestFor(h, task.need) - index.board_->now());
      *time = mu * et + gamma * ftt + wait;
      return true;
    }
    bool Before(HostId a, bool, HostId b, bool) const {
      return tie_order[a] < tie_order[b];
    }
  };
  return Search(work, Time{*this, task, mu, gamma, allowed, tie_order});
}

}  // namespace gs
