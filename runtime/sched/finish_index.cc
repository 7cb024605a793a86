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
  // The groups were made of valid speeds: the same speeds need no check.
  const bool same_speeds =
      model_ && speeds_.size() == n &&
      std::equal(speeds_.begin(), speeds_.end(), speeds.begin());
  for (size_t h = 0; model_ && !same_speeds && h < n; ++h)
    model_ = speeds[h] > 0 && std::isfinite(speeds[h]);
  if (!model_) {
    // Nothing logged: the next round with a model has nothing to replay.
    ForgetRounds();
    logging_ = replaying_ = false;
    return;
  }
  const bool regrouped = !same_speeds;
  if (regrouped) GroupBySpeed(speeds.first(n));
  // Each group back in order of earliest slot: an insertion sort from the
  // previous round's order, where only the hosts whose jobs started or
  // ended since are out of place. With replay, only the groups holding a
  // host whose earliest slot is not the one it was sorted by (a job's end
  // and its successor's start: one or two groups a round), and only when a
  // search reads them (a replayed round may search none).
  least_earliest_ = std::numeric_limits<Seconds>::infinity();
  if (replay_enabled_) {
    unsorted_.assign(groups_.size(), false);
    unsorted_list_.clear();
    for (HostId h = 0; h < n; ++h) {
      const Seconds earliest = EarliestOf(h);
      least_earliest_ = std::min(least_earliest_, earliest);
      if (earliest != sorted_by_[h]) MarkUnsorted(h);
    }
  } else {
    for (const Group& g : groups_) SortGroup(g);
    unsorted_.assign(groups_.size(), false);
    unsorted_list_.clear();
    for (const Group& g : groups_)
      least_earliest_ =
          std::min(least_earliest_, EarliestOf(members_[g.begin]));
  }
  inverse_lower_ = groups_.empty() ? 0 : groups_.front().inverse_lower;
  if (replay_enabled_) StartRound(regrouped);
}

void FinishIndex::SortGroup(const Group& g) {
  // Each host's key read once (EarliestOf is three dependent loads), then
  // an insertion sort: by earliest slot, then index (Before).
  std::vector<std::pair<Seconds, HostId>>& keys = sort_keys_;
  keys.clear();
  for (uint32_t i = g.begin; i < g.end; ++i)
    keys.push_back({EarliestOf(members_[i]), members_[i]});
  for (size_t i = 1; i < keys.size(); ++i) {
    const std::pair<Seconds, HostId> k = keys[i];
    size_t p = i;
    for (; p > 0 && k < keys[p - 1]; --p) keys[p] = keys[p - 1];
    keys[p] = k;
  }
  for (uint32_t i = g.begin; i < g.end; ++i) {
    const auto [earliest, h] = keys[i - g.begin];
    members_[i] = h;
    sorted_by_[h] = earliest;
    if (!replay_enabled_) position_[h] = i;  // for Moved without replay
  }
}

void FinishIndex::StartRound(bool regrouped) {
  steps_.clear();
  old_count_ = log_.size();
  slots_.swap(old_slots_);
  begin_.swap(old_begin_);
  begin_.clear();
  taken_.swap(old_taken_);
  taken_.clear();
  old_stamp_ = stamp_;
  stamp_ = 0;
  for (HostId h : d_) in_d_[h] = false;
  d_.clear();
  const size_t n = board_->num_hosts();
  in_d_.resize(n, false);
  // Memory or GPUs held by jobs of other needs: no replay (as before GPUs).
  const bool memory = board_->tracks_memory() || board_->tracks_gpus();
  logging_ = !memory;
  replaying_ = !memory && !regrouped && old_count_ > 0 &&
               old_predictor_ == predictor_ && old_begin_.size() == n + 1;
  old_predictor_ = predictor_;
  found_ = kept_ = false;
  first_find_ = true;
  expect_ = kNoHost;
  cursor_ = carried_ = 0;
}

void FinishIndex::KeepBoard() {
  const auto slots = board_->all_slots();
  const auto begins = board_->begins();
  slots_.assign(slots.begin(), slots.end());
  begin_.assign(begins.begin(), begins.end());
  taken_.clear();
  for (const Step& s : steps_) taken_.push_back(s.host);
  kept_ = true;
  if (stamp_ == 0) stamp_ = predictor_->stamp();
}

void FinishIndex::EndRound() {
  if (!replay_enabled_ || !model_) return;
  if (!logging_) {
    // Steps after a Take without its Find were not logged: the log is
    // complete up to there, the old steps after the cursor are not.
    replaying_ = false;
  }
  // The old steps not reached stay behind this round's, where they are:
  // the log is kept backwards, so they are its bottom and this round's
  // steps go on top (a round copies its own steps, not the hundreds of
  // reservations it did not reach).
  size_t kept_steps = 0;
  if (replaying_ && cursor_ < old_count_) {
    Arrive();  // the step at the cursor's carries are in D now
    kept_steps = old_count_ - cursor_;
  }
  log_.resize(kept_steps);
  if (kept_steps > 0) {
    // At the junction the board may differ from the old step's by D (which
    // holds its own carries now).
    Step& junction = log_.back();
    junction.carry_begin = static_cast<uint32_t>(carries_.size());
    carries_.insert(carries_.end(), d_.begin(), d_.end());
    junction.carry_end = static_cast<uint32_t>(carries_.size());
  }
  for (auto it = steps_.rbegin(); it != steps_.rend(); ++it) {
    Step step = *it;
    step.reserved_below =
        (log_.empty() ? 0 : log_.back().reserved_below) + (step.free ? 0 : 1);
    log_.push_back(step);
  }
  const bool reserved = !log_.empty() && log_.back().reserved_below > 0;
  if (!kept_ || !reserved) {
    ForgetRounds();  // nothing to replay next round
  } else if (carries_.size() > carries_limit_) {
    CompactCarries();
  }
}

void FinishIndex::CompactCarries() {
  std::vector<HostId> live;
  for (Step& step : log_) {
    const uint32_t begin = static_cast<uint32_t>(live.size());
    live.insert(live.end(), carries_.begin() + step.carry_begin,
                carries_.begin() + step.carry_end);
    step.carry_begin = begin;
    step.carry_end = static_cast<uint32_t>(live.size());
  }
  carries_.swap(live);
  carries_limit_ = 2 * carries_.size() + 4096;
}

bool FinishIndex::SameAsLastRound() {
  // The stamp is read only by rounds that reserve or replay (a virtual
  // call that may cost a pass over the hosts).
  stamp_ = predictor_->stamp();
  if (stamp_ == 0 || stamp_ != old_stamp_) return false;
  // No Take yet this round: the board is as built.
  const auto slots = board_->all_slots();
  const auto begins = board_->begins();
  if (std::equal(begins.begin(), begins.end(), old_begin_.begin())) {
    // Every host has as many slots as then (the common case): one pass
    // over the slots, a changed one's host found from its place.
    const size_t total = begins.back();
    for (size_t i = 0; i < total; ++i) {
      if (slots[i] == old_slots_[i]) continue;
      const HostId h = static_cast<HostId>(
          std::upper_bound(begins.begin(), begins.end(), i) - begins.begin() -
          1);
      Changed(h);
      i = begins[h + 1] - 1;
    }
  } else {
    for (HostId h = 0; h + 1 < begins.size(); ++h) {
      if (!std::equal(slots.begin() + begins[h], slots.begin() + begins[h + 1],
                      old_slots_.begin() + old_begin_[h],
                      old_slots_.begin() + old_begin_[h + 1])) {
        Changed(h);
      }
    }
  }
  for (HostId h : old_taken_) Changed(h);
  return true;
}

void FinishIndex::Arrive() {
  if (carried_ > cursor_ || cursor_ >= old_count_) return;
  const Step& step = OldStep(cursor_);
  for (uint32_t i = step.carry_begin; i < step.carry_end; ++i)
    Changed(carries_[i]);
  carried_ = cursor_ + 1;
}

const FinishIndex::Step* FinishIndex::Replayable(const ReadyTask& task,
                                                 Seconds work, bool prefer_free,
                                                 bool least_time) {
  const bool first = first_find_;
  first_find_ = false;
  if (!replaying_) return nullptr;
  if (first && !SameAsLastRound()) {
    replaying_ = false;
    return nullptr;
  }
  // The tasks that started last round left the queue: their Takes are not
  // made again.
  for (Arrive(); cursor_ < old_count_ && OldStep(cursor_).task != task.id &&
                 OldStep(cursor_).free;
       Arrive()) {
    Changed(OldStep(cursor_++).host);
  }
  const Step* old = cursor_ < old_count_ ? &OldStep(cursor_) : nullptr;
  if (old == nullptr || old->task != task.id || !task.need.simple() ||
      old->work != work || old->prefer_free != prefer_free ||
      old->least_time != least_time) {
    replaying_ = false;
    return nullptr;
  }
  // Before any Take: the board the next round compares with.
  if (first) KeepBoard();
  ++cursor_;
  return old;
}

template <typename Cost>
FinishIndex::Best FinishIndex::Replay(const Step& old, Seconds work,
                                      const Cost& cost) const {
  // Hosts outside D give what they gave: old.host was their best.
  Best best{old.host, old.end, old.free};
  for (HostId h : d_) {
    const Seconds earliest = EarliestOf(h);
    if (earliest == std::numeric_limits<Seconds>::infinity() ||
        cost.Bound(earliest, work * groups_[group_of_[h]].inverse_lower) >
            best.end)
      continue;
    bool free = false;
    Seconds value;
    if (!cost.Value(h, &value, &free) || value > best.end) continue;
    if (value < best.end || cost.Before(h, free, best.host, best.free))
      best = {h, value, free};
  }
  return best;
}

template <typename Cost>
bool FinishIndex::ReplayLeastTime(const Step& old, Seconds work,
                                  const Cost& cost, Best* best,
                                  Seconds* runner_up) const {
  // The old host's Time now; every other host outside D has Time + now at
  // least old.runner_up up to the rounding, so it loses if the margin is
  // wide (the hosts of D are compared one by one below).
  const Seconds now = board_->now();
  bool free = false;
  Seconds time;
  if (!cost.Value(old.host, &time, &free)) return false;
  const Seconds key = time + now;
  const Seconds tolerance =
      1e-12 * (std::abs(old.runner_up) + std::abs(key) + std::abs(now) + 1);
  if (!(old.runner_up - key > tolerance)) return false;
  *best = {old.host, time, free};
  Seconds lower = old.runner_up;  // of the others' Time + now
  for (HostId h : d_) {
    const Seconds earliest = EarliestOf(h);
    if (earliest == std::numeric_limits<Seconds>::infinity()) continue;
    const Seconds bound =
        cost.Bound(earliest, work * groups_[group_of_[h]].inverse_lower);
    if (bound > best->end) {
      lower = std::min(lower, bound + now);
      continue;
    }
    Seconds value;
    if (!cost.Value(h, &value, &free)) continue;
    if (value < best->end ||
        (value == best->end && cost.Before(h, free, best->host, best->free))) {
      lower = std::min(lower, best->end + now);
      *best = {h, value, free};
    } else {
      lower = std::min(lower, value + now);
    }
  }
  *runner_up = lower;
  return true;
}

void FinishIndex::Record(const ReadyTask& task, Seconds work, bool prefer_free,
                         const Best& best, const Step* old, bool least_time,
                         Seconds runner_up) {
  expect_ = kNoHost;
  current_old_ = old;
  current_logged_ = false;
  if (old != nullptr) {
    // A host whose slots are unchanged gives the end it gave (FindLeastTime's
    // `end` is a Time, which moves with now; the reservation's does not).
    if (!in_d_[old->host] && best.host == old->host &&
        (least_time || best.end == old->end) && best.free == old->free) {
      expect_ = old->host;  // its Take is the old one
    } else {
      Changed(old->host);  // the old Take is not made
    }
  }
  found_ = true;
  if (!logging_) return;
  if (best.host == kNoHost || !task.need.simple()) {
    logging_ = false;
    return;
  }
  if (!best.free && !kept_) KeepBoard();  // the next round may replay it
  steps_.push_back({task.id, best.host, best.end, work, best.free, prefer_free,
                    least_time, runner_up});
  current_logged_ = true;
}

void FinishIndex::Unfollowed() {
  if (!replay_enabled_ || !found_) return;
  if (current_logged_) steps_.pop_back();
  logging_ = replaying_ = false;
  found_ = false;
  expect_ = kNoHost;
  current_old_ = nullptr;
  current_logged_ = false;
}

Seconds FinishIndex::LeastEnd(Seconds work) {
  const Seconds kInf = std::numeric_limits<Seconds>::infinity();
  if (!model_ || !(work >= 0) || !std::isfinite(work)) return -kInf;
  struct End {
    const FinishIndex& index;
    Seconds work;
    Seconds Bound(Seconds earliest, Seconds least_exec) const {
      return earliest + least_exec;
    }
    bool Value(HostId h, Seconds* end, bool*) const {
      *end = index.EarliestOf(h) + work / index.speeds_[h];
      return true;
    }
    bool Before(HostId a, bool, HostId b, bool) const { return a < b; }
  };
  const End cost{*this, work};
  // Between a Find and its Take, in a round that still replays.
  const bool step = replay_enabled_ && found_;
  const Step* old = step && replaying_ ? current_old_ : nullptr;
  Best best;
  if (old != nullptr && old->next_work == work && old->next_host != kNoHost &&
      !in_d_[old->next_host]) {
    // Hosts outside D give what they gave, the least of them at next_host.
    best = {old->next_host, old->next_end, false};
    for (HostId h : d_) {
      if (EarliestOf(h) == kInf) continue;
      Seconds end;
      bool free;
      cost.Value(h, &end, &free);
      if (end < best.end || (end == best.end && h < best.host))
        best = {h, end, false};
    }
    ++replayed_;
  } else {
    best = Search(work, cost);
  }
  if (step && current_logged_) {
    Step& s = steps_.back();
    s.next_work = work;
    s.next_end = best.end;
    s.next_host = best.host;
  }
  return best.host == kNoHost ? kInf : best.end;
}

Seconds FinishIndex::QuickBoundOf(Seconds work) const {
  if (!model_ || !(work >= 0) || !std::isfinite(work))
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
  // NaN equals no earliest slot: every group is sorted at its first search.
  sorted_by_.assign(n, std::numeric_limits<Seconds>::quiet_NaN());
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
  if (replay_enabled_) {
    // A Take without its Find: later steps would not replay it.
    if (!found_) logging_ = false;
    found_ = false;
    if (h == expect_) {
      expect_ = kNoHost;
    } else {
      Changed(h);
    }
    // Replayed steps need no order: the group is sorted when searched.
    MarkUnsorted(h);
    return;
  }
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
FinishIndex::Best FinishIndex::Search(Seconds work, const Cost& cost,
                                      Seconds* lower_other) {
  // Each group's bound; the least-bound group is searched first (it
  // usually holds the answer or near it), then the others in speed order,
  // skipping those whose bound exceeds the best so far.
  const Seconds kInf = std::numeric_limits<Seconds>::infinity();
  for (uint32_t g : unsorted_list_) {
    SortGroup(groups_[g]);
    unsorted_[g] = false;
  }
  unsorted_list_.clear();
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
  // The others' least value or bound (only with lower_other).
  Seconds lower = kInf;
  auto search_group = [&](uint32_t g) {
    const Seconds least_exec = bounds_[g].second;
    for (uint32_t i = groups_[g].begin; i < groups_[g].end; ++i) {
      const HostId h = members_[i];
      // Ordered by earliest: the rest of the group costs no less.
      const Seconds earliest = EarliestOf(h);
      if (earliest == kInf) break;
      const Seconds bound = cost.Bound(earliest, least_exec);
      if (bound > best.end) {
        lower = std::min(lower, bound);
        break;
      }
      bool free = false;
      Seconds value;
      if (!cost.Value(h, &value, &free)) continue;
      if (value > best.end) {
        lower = std::min(lower, value);
        continue;
      }
      if (value < best.end || best.host == kNoHost ||
          cost.Before(h, free, best.host, best.free)) {
        if (best.host != kNoHost) lower = std::min(lower, best.end);
        best = {h, value, free};
      } else {
        lower = std::min(lower, value);
      }
    }
  };
  if (lower_other != nullptr) *lower_other = kInf;
  if (groups_.empty() || bounds_[first_group].first == kInf) return best;
  search_group(first_group);
  for (uint32_t g = 0; g < groups_.size(); ++g) {
    if (g == first_group) continue;
    if (bounds_[g].first <= best.end) {
      search_group(g);
    } else {
      lower = std::min(lower, bounds_[g].first);
    }
  }
  if (lower_other != nullptr) *lower_other = lower;
  return best;
}

FinishIndex::Best FinishIndex::Find(const ReadyTask& task, bool prefer_free) {
  return FindOfWork(task, prefer_free, model_ ? predictor_->Work(task.op) : -1);
}

FinishIndex::Best FinishIndex::FindOfWork(const ReadyTask& task,
                                          bool prefer_free, Seconds work) {
  if (!model_) work = -1;
  if (!(work >= 0) || !std::isfinite(work)) {
    if (replay_enabled_) {
      // Not replayable, nor what follows.
      logging_ = replaying_ = false;
      Record(task, work, prefer_free, {}, nullptr);
    }
    return Scan(task, prefer_free);
  }
  struct End {
    const FinishIndex& index;
    const ReadyTask& task;
    Seconds work;
    bool prefer_free;
    Seconds Bound(Seconds earliest, Seconds least_exec) const {
      return earliest + least_exec;
    }
    bool Value(HostId h, Seconds* end, bool* free) const {
      if (!index.board_->Fits(h, task.need)) return false;
      // ExecTime(op, h) is exactly work / speed (Predictor::speeds): no
      // call, nor the predictor's lookups of the op.
      *end = index.board_->EarliestFor(h, task.need) + work / index.speeds_[h] +
             index.predictor_->TransferTime(task.id, h);
      *free = index.board_->FreeNowFor(h, task.need);
      return true;
    }
    bool Before(HostId a, bool a_free, HostId b, bool b_free) const {
      if (prefer_free && a_free != b_free) return a_free;
      return a < b;
    }
  };
  const End cost{*this, task, work, prefer_free};
  if (!replay_enabled_) return Search(work, cost);
  const Step* old = Replayable(task, work, prefer_free, false);
  Best best;
  if (old != nullptr && !in_d_[old->host]) {
    best = Replay(*old, work, cost);
    ++replayed_;
  } else {
    best = Search(work, cost);
  }
  Record(task, work, prefer_free, best, old);
  return best;
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
    Seconds work;
    // mu * ET >= mu * (least ET), gamma * FTT >= 0 and the wait is at
    // least the one for the earliest slot; rounding keeps the order.
    Seconds Bound(Seconds earliest, Seconds least_exec) const {
      return mu * least_exec + std::max(0.0, earliest - index.board_->now());
    }
    bool Value(HostId h, Seconds* time, bool* free) const {
      if (!allowed[h] || !index.board_->Fits(h, task.need)) return false;
      const Seconds et = work / index.speeds_[h];  // ExecTime, exactly
      const Seconds ftt = index.predictor_->TransferTime(task.id, h);
      const Seconds wait = std::max(
          0.0, index.board_->EarliestFor(h, task.need) - index.board_->now());
      *time = mu * et + gamma * ftt + wait;
      *free = index.board_->FreeNowFor(h, task.need);
      return true;
    }
    bool Before(HostId a, bool, HostId b, bool) const {
      return tie_order[a] < tie_order[b];
    }
  };
  const Time cost{*this, task, mu, gamma, allowed, tie_order, work};
  if (!replay_enabled_) return Search(work, cost);
  const Step* old = Replayable(task, work, false, /*least_time=*/true);
  Best best;
  Seconds runner_up = std::numeric_limits<Seconds>::infinity();
  if (old != nullptr && !in_d_[old->host] &&
      ReplayLeastTime(*old, work, cost, &best, &runner_up)) {
    ++replayed_;
  } else {
    // Time + now of the others: the bound is monotonic in Time.
    Seconds lower;
    best = Search(work, cost, &lower);
    runner_up = lower + board_->now();
  }
  Record(task, work, false, best, old, /*least_time=*/true, runner_up);
  return best;
}

}  // namespace gs
