#include "runtime/sched/minmin_order.h"

#include <algorithm>
#include <cmath>

namespace gs {
namespace {

Seconds WorkOf(const ReadyTask& task, const Predictor& predictor) {
  const Seconds work = predictor.Work(task.op);
  return work >= 0 && std::isfinite(work) ? work : -1;
}

}  // namespace

bool MinMinOrder::Before(uint32_t a, uint32_t b) const {
  const Seconds wa = entries_[a].work, wb = entries_[b].work;
  return wa != wb ? wa < wb : a < b;  // -1 (not known) first
}

uint32_t MinMinOrder::RemovedBefore(uint32_t slot) const {
  uint32_t n = 0;
  for (uint32_t i = slot; i > 0; i -= i & (0 - i)) n += fenwick_[i];
  return n;
}

void MinMinOrder::MarkRemoved(uint32_t slot) {
  removed_[slot] = true;
  removals_.push_back(slot);
  --live_;
  for (uint32_t i = slot + 1; i < fenwick_.size(); i += i & (0 - i))
    ++fenwick_[i];
  while (live_ > 0 && removed_[last_live_]) --last_live_;
}

bool MinMinOrder::Matches(const ReadyTask& e, uint32_t place) const {
  if (place >= ready_.size()) return false;
  const ReadyTask& r = ready_[place];
  return r.id == e.id && r.op == e.op && r.need == e.need;
}

void MinMinOrder::Sort(std::span<const ReadyTask> ready,
                       const Predictor& predictor) {
  ++sorts_;
  predictor_ = &predictor;
  stamp_ = predictor.stamp();
  const uint32_t n = static_cast<uint32_t>(ready.size());
  entries_.clear();
  for (const ReadyTask& t : ready)
    entries_.push_back({t, WorkOf(t, predictor)});
  removed_.assign(n, false);
  removals_.clear();
  fenwick_.assign(n + 1, 0);
  live_ = n;
  last_live_ = n > 0 ? n - 1 : 0;
  order_.resize(n);
  for (uint32_t i = 0; i < n; ++i) order_[i] = i;
  std::sort(order_.begin(), order_.end(),
            [&](uint32_t a, uint32_t b) { return Before(a, b); });
  front_ = 0;
}

void MinMinOrder::Append(std::span<const ReadyTask> added,
                         const Predictor& predictor) {
  const size_t old_end = order_.size();
  for (const ReadyTask& t : added) {
    const uint32_t slot = static_cast<uint32_t>(entries_.size());
    entries_.push_back({t, WorkOf(t, predictor)});
    removed_.push_back(false);
    // Fenwick node slot + 1 covers slots (slot + 1 - lowbit, slot]: the
    // removed among them, the new one not.
    const uint32_t i = slot + 1;
    fenwick_.push_back(RemovedBefore(slot) - RemovedBefore(i - (i & (0 - i))));
    order_.push_back(slot);
    last_live_ = slot;
    ++live_;
  }
  auto less = [&](uint32_t a, uint32_t b) { return Before(a, b); };
  std::sort(order_.begin() + old_end, order_.end(), less);
  std::inplace_merge(order_.begin() + front_, order_.begin() + old_end,
                     order_.end(), less);
}

void MinMinOrder::Update(std::span<const ReadyTask> ready,
                         const Predictor& predictor) {
  ready_ = ready;
  walked_.clear();
  const uint64_t stamp = predictor.stamp();
  // Kept: the same times, and no task the order knows removed untold (the
  // last one known would have moved).
  bool keep = predictor_ == &predictor && stamp != 0 && stamp == stamp_ &&
              ready.size() >= live_;
  if (keep && live_ > 0)
    keep = Matches(entries_[last_live_].task, PlaceOf(last_live_));
  // Removed slots pile up in the order: sorted afresh when they are most.
  if (keep && order_.size() - front_ > 2 * live_ + 1024) keep = false;
  if (!keep) {
    Sort(ready, predictor);
    ForgetPlaces();  // other places in order_
  } else if (ready.size() > live_) {
    Append(ready.subspan(live_), predictor);
    ForgetPlaces();
  }
  while (front_ < order_.size() && removed_[order_[front_]]) ++front_;
  walk_ = front_;
}

MinMinOrder::Next MinMinOrder::Walk(uint32_t* index, Seconds* work) {
  while (walk_ < order_.size() && removed_[order_[walk_]]) ++walk_;
  if (walk_ == order_.size()) return Next::kEnd;
  const uint32_t at = static_cast<uint32_t>(walk_++);
  const uint32_t slot = order_[at];
  Walked& known = walked_at_[at];
  const size_t removals = removals_.size();
  if (known.removals <= removals && removals - known.removals <= 32) {
    // Its place when last walked, less the tasks removed before it since.
    for (size_t i = known.removals; i < removals; ++i)
      known.place -= removals_[i] < slot ? 1 : 0;
  } else {
    known.place = PlaceOf(slot);
    known.entry = entries_[slot];
  }
  known.removals = static_cast<uint32_t>(removals);
  if (!Matches(known.entry.task, known.place)) return Next::kBroken;
  walked_.push_back({known.place, slot});
  *index = known.place;
  *work = known.entry.work;
  return Next::kTask;
}

void MinMinOrder::ForgetPlaces() {
  // removals above every count: none known.
  walked_at_.assign(order_.size(), Walked{0, kNotWalked, {}});
}

void MinMinOrder::Placed(uint32_t index) {
  for (const auto& [place, slot] : walked_) {
    if (place == index) {
      MarkRemoved(slot);
      return;
    }
  }
}

}  // namespace gs
