#include "runtime/sched/finish_index.h"

#include <algorithm>
#include <cmath>
#include <functional>

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
    groups_.push_back({static_cast<uint32_t>(begin), static_cast<uint32_t>(end),
                       speeds[members_[begin]]});
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

FinishIndex::Best FinishIndex::Find(const ReadyTask& task, bool prefer_free) {
  const Seconds work = model_ ? predictor_->Work(task.op) : -1;
  if (!(work >= 0) || !std::isfinite(work)) return Scan(task, prefer_free);
  bounds_.clear();
  for (uint32_t g = 0; g < groups_.size(); ++g) {
    const Seconds first = EarliestOf(members_[groups_[g].begin]);
    if (first == std::numeric_limits<Seconds>::infinity()) continue;
    bounds_.push_back({first + work / groups_[g].fastest, g});
  }
  // Visited by bound, least first (a heap: few groups are visited).
  std::make_heap(bounds_.begin(), bounds_.end(), std::greater<>());
  Best best;
  while (!bounds_.empty()) {
    std::pop_heap(bounds_.begin(), bounds_.end(), std::greater<>());
    const auto [bound, g] = bounds_.back();
    bounds_.pop_back();
    if (bound > best.end) break;
    const Seconds least_exec = work / groups_[g].fastest;
    for (uint32_t i = groups_[g].begin; i < groups_[g].end; ++i) {
      const HostId h = members_[i];
      // Ordered by earliest: the rest of the group ends no sooner.
      if (EarliestOf(h) + least_exec > best.end) break;
      if (!board_->Fits(h, task.need)) continue;
      const Seconds end = board_->EarliestFor(h, task.need) +
                          predictor_->ExecTime(task.op, h) +
                          predictor_->TransferTime(task.id, h);
      if (end > best.end) continue;
      const bool free = board_->FreeNowFor(h, task.need);
      bool better = end < best.end;
      if (!better && prefer_free && free != best.free)
        better = free;
      else if (!better)
        better = h < best.host;
      if (better) best = {h, end, free};
    }
  }
  return best;
}

}  // namespace gs
