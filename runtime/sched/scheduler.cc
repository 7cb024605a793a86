#include "runtime/sched/scheduler.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "runtime/sched/finish_index.h"
#include "runtime/sched/policies_batch_plan.h"
#include "runtime/sched/policies_ft.h"
#include "runtime/sched/policies_grank.h"
#include "runtime/sched/policies_gtp.h"
#include "runtime/sched/policies_minmin.h"
#include "runtime/sched/policies_sufferage.h"
#include "runtime/sched/policies_volatile.h"
#include "runtime/sched/policies_workqueue.h"

namespace gs {

std::string FormatCapacity(int cores, double memory_gb, int gpus) {
  std::string text = std::to_string(cores) + (cores == 1 ? " core" : " cores");
  if (memory_gb > 0) {
    char gb[32];
    std::snprintf(gb, sizeof gb, "%g", memory_gb);
    text += std::string(gpus > 0 ? ", " : " and ") + gb + " GB of memory";
  }
  if (gpus > 0)
    text += " and " + std::to_string(gpus) + (gpus == 1 ? " GPU" : " GPUs");
  return text;
}

int HostState::FreeFor(const Need& need) const {
  if (!usable || need.cores < 1) return 0;
  int n = free_slots() / need.cores;
  if (memory_gb > 0 && need.memory_gb > 0) {
    double left = memory_gb - busy_memory();
    n = std::min(n, static_cast<int>(std::floor(left / need.memory_gb + 1e-9)));
  }
  if (need.gpus > 0) n = std::min(n, (gpus - busy_gpus()) / need.gpus);
  return std::max(n, 0);
}

SlotBoard::SlotBoard(const SchedulingInput& in) : now_(in.now) {
  // A board is made every round (after every job's end) over every host:
  // one allocation for all slots, written in place.
  const auto& hosts = *in.hosts;
  const size_t n = hosts.size();
  begin_.resize(n + 1);
  host_free_.resize(n);
  size_t total = 0;
  bool any_memory = false, any_gpus = false;
  for (const HostState& host : hosts) {
    any_memory = any_memory || host.memory_gb > 0;
    any_gpus = any_gpus || host.gpus > 0;
    if (!host.usable) continue;
    // What the loop below writes: each job's cores, then the free slots.
    const size_t jobs = host.busy_until.size();
    const size_t with_needs = std::min(jobs, host.busy_needs.size());
    total += jobs - with_needs + std::max(0, host.free_slots());
    for (size_t j = 0; j < with_needs; ++j)
      total += std::max(0, host.busy_needs[j].cores);
  }
  // Memory is tracked only when some host has a capacity (every use is
  // behind memory_of(h) > 0): without one, no per-host vectors each round.
  if (any_memory) {
    memory_.assign(n, 0);
    held_.assign(n, 0);
    holds_.resize(n);
  }
  if (any_gpus) {
    gpus_.assign(n, 0);
    gpus_held_.assign(n, 0);
    gpu_holds_.resize(n);
  }
  slots_.resize(total);
  // Local pointers: the compiler cannot tell the slots written from the
  // members, and would read them again after every write.
  Slot* const first = slots_.data();
  Slot* out = first;
  uint32_t* const begin = begin_.data();
  int* const host_free = host_free_.data();
  const Seconds now = now_;
  int free = 0;
  for (size_t h = 0; h < n; ++h) {
    begin[h] = static_cast<uint32_t>(out - first);
    host_free[h] = 0;
    const HostState& host = hosts[h];
    if (!host.usable) continue;
    Slot* const host_first = out;
    const size_t jobs = host.busy_until.size();
    for (size_t j = 0; j < jobs; ++j) {
      // An overrunning job still holds its slots: never "free" at now.
      const Seconds until = std::max(host.busy_until[j], now);
      if (j >= host.busy_needs.size()) {  // one core, no memory
        *out++ = {until, false};
        continue;
      }
      const Need& need = host.busy_needs[j];
      for (int c = 0; c < need.cores; ++c) *out++ = {until, false};
      if (host.memory_gb > 0 && need.memory_gb > 0) {
        holds_[h].push_back({until, need.memory_gb});
        held_[h] += need.memory_gb;
      }
      if (host.gpus > 0 && need.gpus > 0) {
        gpu_holds_[h].push_back({until, static_cast<double>(need.gpus)});
        gpus_held_[h] += need.gpus;
      }
    }
    for (int i = host.free_slots(); i > 0; --i) {
      *out++ = {now, true};
      ++free;
      ++host_free[h];
    }
    if (any_memory) memory_[h] = host.memory_gb;
    if (any_gpus) gpus_[h] = host.gpus;
    if (out - host_first > 1) std::make_heap(host_first, out, Later);
  }
  begin[n] = static_cast<uint32_t>(out - first);
  free_ = free;
}

bool SlotBoard::Later(const Slot& a, const Slot& b) {
  if (a.time != b.time) return a.time > b.time;
  return !a.free && b.free;  // free slots first among equal times
}

void SlotBoard::Take(HostId h, Seconds end) {
  auto first = slots_.begin() + begin_[h];
  auto last = slots_.begin() + begin_[h + 1];
  if (first->free) {
    --free_;
    --host_free_[h];
  }
  std::pop_heap(first, last, Later);
  *(last - 1) = {end, false};
  std::push_heap(first, last, Later);
}

bool SlotBoard::Fits(HostId h, const Need& need) const {
  if (!usable(h) || !need.Allows(h)) return false;
  if (need.cores > static_cast<int>(begin_[h + 1] - begin_[h])) return false;
  if (need.gpus > gpu_capacity(h)) return false;
  return memory_of(h) == 0 || need.memory_gb <= memory_[h] + 1e-9;
}

bool SlotBoard::FreeNowFor(HostId h, const Need& need) const {
  if (need.simple()) return free_now(h);
  if (host_free_[h] < need.cores) return false;
  if (need.gpus > 0 && gpus_held_[h] + need.gpus > gpu_capacity(h))
    return false;
  return memory_of(h) == 0 || held_[h] + need.memory_gb <= memory_[h] + 1e-9;
}

Seconds SlotBoard::FreeAt(const std::vector<Hold>& holds, double capacity,
                          double want, Seconds from) {
  // Held after `from` by holds ending later; release them in end order.
  std::vector<Hold> later;
  double held = 0;
  for (const Hold& hold : holds) {
    if (hold.until > from) {
      later.push_back(hold);
      held += hold.amount;
    }
  }
  if (held + want <= capacity + 1e-9) return from;
  std::sort(later.begin(), later.end(),
            [](const Hold& a, const Hold& b) { return a.until < b.until; });
  for (const Hold& hold : later) {
    held -= hold.amount;
    if (held + want <= capacity + 1e-9) return hold.until;
  }
  return from;  // unreachable when Fits(h): everything ends eventually
}

Seconds SlotBoard::EarliestFor(HostId h, const Need& need) const {
  if (need.simple()) return earliest(h);
  if (FreeNowFor(h, need)) return now_;
  Seconds cores_at = earliest(h);
  if (need.cores > 1) {
    // The need.cores-th earliest slot of the host.
    scratch_.assign(slots_.begin() + begin_[h], slots_.begin() + begin_[h + 1]);
    auto kth = scratch_.begin() + (need.cores - 1);
    std::nth_element(scratch_.begin(), kth, scratch_.end(),
                     [](const Slot& a, const Slot& b) { return Later(b, a); });
    cores_at = kth->time;
  }
  // Held amounts only fall as holds end: the time all three are free.
  Seconds at = cores_at;
  if (memory_of(h) > 0 && need.memory_gb > 0)
    at = FreeAt(holds_[h], memory_[h], need.memory_gb, at);
  if (need.gpus > 0 && !gpus_.empty())
    at = FreeAt(gpu_holds_[h], gpus_[h], need.gpus, at);
  return at;
}

void SlotBoard::Take(HostId h, const Need& need, Seconds end) {
  if (need.simple()) return Take(h, end);
  for (int c = 0; c < need.cores; ++c) Take(h, end);
  if (memory_of(h) > 0 && need.memory_gb > 0) {
    holds_[h].push_back({end, need.memory_gb});
    held_[h] += need.memory_gb;
  }
  if (need.gpus > 0 && !gpus_.empty()) {
    gpu_holds_[h].push_back({end, static_cast<double>(need.gpus)});
    gpus_held_[h] += need.gpus;
  }
}

void Policy::Place(std::span<const ReadyTask> ready, const SchedulingInput& in,
                   std::vector<Placement>* out) {
  SlotBoard board(in);
  BeginRound(board, *in.predictor);
  for (const ReadyTask& task : ready) {
    if (board.total_free() == 0) break;
    Choice c = Choose(task, board, *in.predictor);
    if (c.host == kNoHost) {
      if (task.need.simple()) break;  // no host has a free slot
      c = ReserveEarliest(task, board, *in.predictor);
      if (c.host != kNoHost) {
        board.Take(c.host, task.need, c.end);
        Took(c.host);
      }
      continue;
    }
    bool start_now = board.FreeNowFor(c.host, task.need);
    board.Take(c.host, task.need, c.end);  // reserve even when waiting
    Took(c.host);
    if (start_now) {
      out->push_back({task.id, c.host, c.end,
                      static_cast<uint32_t>(&task - ready.data())});
    }
  }
  EndRound();
}

Policy::Choice Policy::ReserveEarliest(const ReadyTask& task,
                                       const SlotBoard& board,
                                       const Predictor& predictor) {
  Choice best{kNoHost, std::numeric_limits<Seconds>::infinity()};
  Seconds best_start = best.end;
  for (HostId h = 0; h < board.num_hosts(); ++h) {
    if (!board.Fits(h, task.need)) continue;
    Seconds start = board.EarliestFor(h, task.need);
    if (start < best_start) {
      best_start = start;
      best = {h, start + predictor.ExecTime(task.op, h) +
                     predictor.TransferTime(task.id, h)};
    }
  }
  return best;
}

namespace {

class MctPolicy : public Policy {
 public:
  // Each round is Find then Take per task in queue order (Policy::Place):
  // the index may replay the previous round's answers.
  MctPolicy() { index_.EnableReplay(); }
  std::string_view name() const override { return "mct"; }
  Choice Choose(const ReadyTask& task, const SlotBoard& board,
                const Predictor& predictor) override {
    // Among equal completion times a host that is free now wins (before
    // anything is measured every prediction is 0, and waiting for a busy
    // host would serialise the run).
    if (in_round_) {
      FinishIndex::Best b = index_.Find(task, /*prefer_free=*/true);
      return {b.host, b.end};
    }
    FinishIndex::Best b = FinishIndex(board, predictor).Find(task, true);
    return {b.host, b.end};
  }

 protected:
  // In a round, the index follows the board's reservations; it is kept
  // between rounds to be rebuilt cheaply.
  void BeginRound(const SlotBoard& board, const Predictor& predictor) override {
    index_.Build(board, predictor);
    in_round_ = true;
  }
  void Took(HostId host) override { index_.Moved(host); }
  void EndRound() override {
    index_.EndRound();
    in_round_ = false;
  }

 private:
  FinishIndex index_;
  bool in_round_ = false;
};

class MetPolicy : public Policy {
 public:
  std::string_view name() const override { return "met"; }
  Choice Choose(const ReadyTask& task, const SlotBoard& board,
                const Predictor& predictor) override {
    HostId best = kNoHost;
    Seconds best_time = std::numeric_limits<Seconds>::infinity();
    for (HostId h = 0; h < board.num_hosts(); ++h) {
      if (!board.Fits(h, task.need)) continue;
      Seconds t =
          predictor.ExecTime(task.op, h) + predictor.TransferTime(task.id, h);
      if (t < best_time) {
        best_time = t;
        best = h;
      }
    }
    if (best == kNoHost) return {};
    return {best, board.EarliestFor(best, task.need) + best_time};
  }
};

}  // namespace

std::unique_ptr<Policy> MakeMctPolicy() {
  return std::make_unique<MctPolicy>();
}
std::unique_ptr<Policy> MakeMetPolicy() {
  return std::make_unique<MetPolicy>();
}

StatusOr<std::unique_ptr<Policy>> MakePolicy(std::string_view name) {
  if (name == "mct") return MakeMctPolicy();
  if (name == "met") return MakeMetPolicy();
  if (name == "min-min") return MakeMinMinPolicy();
  if (name == "sufferage") return MakeSufferagePolicy();
  if (auto b = MakeBatchPlanPolicy(name)) return b;
  if (name == "ftmct") return MakeFtMctPolicy();
  if (name == "ftmet") return MakeFtMetPolicy();
  if (name == "grank") return MakeGrankPolicy();
  if (name == "gtp") return MakeGtpPolicy();
  if (name == "wqr" || name == "wqr-ft" || name == "wqdr-ft") {
    return MakeWorkQueuePolicy(name);
  }
  if (auto v = MakeVolatilePolicy(name)) return v;
  return Status::InvalidArgument("unknown scheduling policy '" +
                                 std::string(name) +
                                 "'; known policies: " + kPolicyNames);
}

const char kPolicyNames[] =
    "mct, met, min-min, sufferage, min-min-ls, sufferage-ls, ftmct, ftmet, "
    "grank, gtp, wqr, wqr-ft, wqdr-ft, ip, ie, "
    "iy, iay, and the proactive c-h (c one of p, e, y; h one of ip, ie, iy, "
    "iay, e.g. y-ie); docs/configuration.md, \"Choosing a policy\", says "
    "when to use which";

bool Scheduler::PlacesOf(const std::vector<Placement>& placed,
                         std::vector<size_t>* places) const {
  places->clear();
  for (const Placement& p : placed) {
    if (p.ready_index >= num_ready()) return false;
    const size_t at = head_ + p.ready_index;
    if (ready_[at].id != p.task) return false;
    places->push_back(at);
  }
  std::sort(places->begin(), places->end());
  return std::adjacent_find(places->begin(), places->end()) == places->end();
}

void Scheduler::RemoveAt(size_t at) {
  if (at - head_ <= ready_.size() - at) {
    std::move_backward(ready_.begin() + head_, ready_.begin() + at,
                       ready_.begin() + at + 1);
    ++head_;
  } else {
    ready_.erase(ready_.begin() + at);
  }
}

void Scheduler::DropConsumedFront() {
  // The consumed front is dropped once it is most of the vector.
  if (head_ >= 4096 && head_ * 2 >= ready_.size()) {
    ready_.erase(ready_.begin(), ready_.begin() + head_);
    head_ = 0;
  }
}

std::vector<Placement> Scheduler::Schedule(const SchedulingInput& in) {
  std::vector<Placement> placed;
  if (num_ready() == 0) return placed;
  policy_->Place(ready(), in, &placed);
  if (placed.empty()) return placed;
  std::vector<size_t> places;
  if (PlacesOf(placed, &places)) {
    if (places.size() == 1) {
      RemoveAt(places.front());
    } else {
      // The tasks kept before the last placed one move up against it, in
      // order; the rest of the queue does not move.
      size_t w = places.back() + 1;
      for (size_t r = places.back() + 1, k = places.size(); r-- > head_;) {
        if (k > 0 && places[k - 1] == r) {
          --k;
        } else {
          ready_[--w] = ready_[r];
        }
      }
      head_ = w;
    }
    DropConsumedFront();
    return placed;
  }
  if (placed.size() == 1) {
    // Not told where: looked for from both ends.
    const TaskId id = placed.front().task;
    size_t front = head_, back = ready_.size();
    size_t at = back;
    while (front < back) {
      if (ready_[front].id == id) {
        at = front;
        break;
      }
      if (ready_[--back].id == id) {
        at = back;
        break;
      }
      ++front;
    }
    if (at == ready_.size()) return placed;  // not in the queue
    RemoveAt(at);
    DropConsumedFront();
    return placed;
  }
  // Placed tasks are usually near the front of a long queue: find the last
  // of them, then shift the tasks kept before it up against it (keeping
  // their order); the rest of the queue does not move.
  std::vector<TaskId> taken;
  taken.reserve(placed.size());
  for (const Placement& p : placed) taken.push_back(p.task);
  std::sort(taken.begin(), taken.end());
  auto is_taken = [&](const ReadyTask& r) {
    return std::binary_search(taken.begin(), taken.end(), r.id);
  };
  size_t found = 0, end = head_;
  for (; end < ready_.size() && found < taken.size(); ++end) {
    if (is_taken(ready_[end])) ++found;
  }
  size_t w = end;
  for (size_t r = end; r-- > head_;) {
    if (!is_taken(ready_[r])) ready_[--w] = ready_[r];
  }
  head_ = w;
  DropConsumedFront();
  return placed;
}

}  // namespace gs
