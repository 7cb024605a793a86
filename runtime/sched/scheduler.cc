#include "runtime/sched/scheduler.h"

#include <algorithm>
#include <limits>

#include "runtime/sched/policies_batch_plan.h"
#include "runtime/sched/policies_ft.h"
#include "runtime/sched/policies_grank.h"
#include "runtime/sched/policies_minmin.h"
#include "runtime/sched/policies_sufferage.h"
#include "runtime/sched/policies_volatile.h"
#include "runtime/sched/policies_workqueue.h"

namespace gs {

SlotBoard::SlotBoard(const SchedulingInput& in) : now_(in.now) {
  const auto& hosts = *in.hosts;
  begin_.resize(hosts.size() + 1);
  size_t total = 0;
  for (size_t h = 0; h < hosts.size(); ++h) {
    if (hosts[h].usable)
      total += hosts[h].busy_until.size() + std::max(0, hosts[h].free_slots());
  }
  slots_.reserve(total);
  for (size_t h = 0; h < hosts.size(); ++h) {
    begin_[h] = static_cast<uint32_t>(slots_.size());
    if (!hosts[h].usable) continue;
    for (Seconds t : hosts[h].busy_until) {
      // An overrunning job still holds its slot: never "free" at now.
      slots_.push_back({std::max(t, now_), false});
    }
    for (int i = hosts[h].free_slots(); i > 0; --i) {
      slots_.push_back({now_, true});
      ++free_;
    }
    std::make_heap(slots_.begin() + begin_[h], slots_.end(), Later);
  }
  begin_[hosts.size()] = static_cast<uint32_t>(slots_.size());
}

bool SlotBoard::Later(const Slot& a, const Slot& b) {
  if (a.time != b.time) return a.time > b.time;
  return !a.free && b.free;  // free slots first among equal times
}

void SlotBoard::Take(HostId h, Seconds end) {
  auto first = slots_.begin() + begin_[h];
  auto last = slots_.begin() + begin_[h + 1];
  if (first->free) --free_;
  std::pop_heap(first, last, Later);
  *(last - 1) = {end, false};
  std::push_heap(first, last, Later);
}

void Policy::Place(const std::vector<ReadyTask>& ready,
                   const SchedulingInput& in, std::vector<Placement>* out) {
  SlotBoard board(in);
  for (const ReadyTask& task : ready) {
    if (board.total_free() == 0) break;
    Choice c = Choose(task, board, *in.predictor);
    if (c.host == kNoHost) break;
    bool start_now = board.free_now(c.host);
    board.Take(c.host, c.end);  // reserve even when waiting
    if (start_now) out->push_back({task.id, c.host, c.end});
  }
}

namespace {

class MctPolicy : public Policy {
 public:
  std::string_view name() const override { return "mct"; }
  Choice Choose(const ReadyTask& task, const SlotBoard& board,
                const Predictor& predictor) override {
    Choice best{kNoHost, std::numeric_limits<Seconds>::infinity()};
    bool best_free = false;
    for (HostId h = 0; h < board.num_hosts(); ++h) {
      if (!board.usable(h)) continue;
      Seconds end = board.earliest(h) + predictor.ExecTime(task.op, h) +
                    predictor.TransferTime(task.id, h);
      // Among equal completion times a host that is free now wins (before
      // anything is measured every prediction is 0, and waiting for a busy
      // host would serialise the run).
      bool free = board.free_now(h);
      if (end < best.end || (end == best.end && free && !best_free)) {
        best = {h, end};
        best_free = free;
      }
    }
    return best;
  }
};

class MetPolicy : public Policy {
 public:
  std::string_view name() const override { return "met"; }
  Choice Choose(const ReadyTask& task, const SlotBoard& board,
                const Predictor& predictor) override {
    HostId best = kNoHost;
    Seconds best_time = std::numeric_limits<Seconds>::infinity();
    for (HostId h = 0; h < board.num_hosts(); ++h) {
      if (!board.usable(h)) continue;
      Seconds t =
          predictor.ExecTime(task.op, h) + predictor.TransferTime(task.id, h);
      if (t < best_time) {
        best_time = t;
        best = h;
      }
    }
    if (best == kNoHost) return {};
    return {best, board.earliest(best) + best_time};
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
    "grank, wqr, wqr-ft, wqdr-ft, ip, ie, "
    "iy, iay, and the proactive c-h (c one of p, e, y; h one of ip, ie, iy, "
    "iay, e.g. y-ie); docs/configuration.md, \"Choosing a policy\", says "
    "when to use which";

std::vector<Placement> Scheduler::Schedule(const SchedulingInput& in) {
  std::vector<Placement> placed;
  if (ready_.empty()) return placed;
  policy_->Place(ready_, in, &placed);
  if (placed.empty()) return placed;
  // Placed tasks are usually near the front of a long queue: remove them
  // scanning only until all are found, then move the rest down once.
  std::vector<TaskId> taken;
  taken.reserve(placed.size());
  for (const Placement& p : placed) taken.push_back(p.task);
  std::sort(taken.begin(), taken.end());
  size_t found = 0, w = 0, r = 0;
  for (; r < ready_.size() && found < taken.size(); ++r) {
    if (std::binary_search(taken.begin(), taken.end(), ready_[r].id)) {
      ++found;
      continue;
    }
    ready_[w++] = ready_[r];
  }
  if (w != r) {
    std::move(ready_.begin() + r, ready_.end(), ready_.begin() + w);
    ready_.resize(ready_.size() - (r - w));
  }
  return placed;
}

}  // namespace gs
