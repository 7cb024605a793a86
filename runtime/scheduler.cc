#include "runtime/scheduler.h"

#include <algorithm>
#include <limits>
#include <queue>
#include <unordered_set>

namespace gs {

namespace {

// Slot availability of every host during one scheduling round: a min-heap
// of the times at which each slot frees up, with free slots at `now`.
class SlotBoard {
 public:
  SlotBoard(const SchedulingInput& in) : now_(in.now) {
    const auto& hosts = *in.hosts;
    slots_.resize(hosts.size());
    for (size_t h = 0; h < hosts.size(); ++h) {
      if (!hosts[h].usable) continue;
      auto& heap = slots_[h];
      for (Seconds t : hosts[h].busy_until) {
        // An overrunning job still holds its slot: never "free" at now.
        heap.push_back({std::max(t, now_), false});
      }
      for (int i = hosts[h].free_slots(); i > 0; --i) {
        heap.push_back({now_, true});
        ++free_;
      }
      std::make_heap(heap.begin(), heap.end(), Later);
    }
  }

  bool usable(HostId h) const { return !slots_[h].empty(); }
  // When the next slot of `h` is free.
  Seconds earliest(HostId h) const { return slots_[h].front().time; }
  bool free_now(HostId h) const { return slots_[h].front().free; }
  int total_free() const { return free_; }
  size_t num_hosts() const { return slots_.size(); }

  // Gives the earliest slot of `h` to a task ending at `end`.
  void Take(HostId h, Seconds end) {
    auto& heap = slots_[h];
    if (heap.front().free) --free_;
    std::pop_heap(heap.begin(), heap.end(), Later);
    heap.back() = {end, false};
    std::push_heap(heap.begin(), heap.end(), Later);
  }

 private:
  struct Slot {
    Seconds time;
    bool free;
  };
  static bool Later(const Slot& a, const Slot& b) {
    if (a.time != b.time) return a.time > b.time;
    return !a.free && b.free;  // free slots first among equal times
  }
  Seconds now_;
  int free_ = 0;
  std::vector<std::vector<Slot>> slots_;
};

class MctPolicy : public Policy {
 public:
  std::string_view name() const override { return "mct"; }
  void Place(const std::vector<ReadyTask>& ready, const SchedulingInput& in,
             std::vector<Placement>* out) override {
    SlotBoard board(in);
    for (const ReadyTask& task : ready) {
      if (board.total_free() == 0) break;
      HostId best = 0;
      Seconds best_end = std::numeric_limits<Seconds>::infinity();
      for (HostId h = 0; h < board.num_hosts(); ++h) {
        if (!board.usable(h)) continue;
        Seconds end = board.earliest(h) + in.predictor->ExecTime(task.op, h) +
                      in.predictor->TransferTime(task.id, h);
        if (end < best_end) {
          best_end = end;
          best = h;
        }
      }
      if (best_end == std::numeric_limits<Seconds>::infinity()) break;
      bool start_now = board.free_now(best);
      board.Take(best, best_end);  // reserve even when waiting
      if (start_now) out->push_back({task.id, best, best_end});
    }
  }
};

class MetPolicy : public Policy {
 public:
  std::string_view name() const override { return "met"; }
  void Place(const std::vector<ReadyTask>& ready, const SchedulingInput& in,
             std::vector<Placement>* out) override {
    SlotBoard board(in);
    for (const ReadyTask& task : ready) {
      if (board.total_free() == 0) break;
      HostId best = 0;
      Seconds best_et = std::numeric_limits<Seconds>::infinity();
      for (HostId h = 0; h < board.num_hosts(); ++h) {
        if (!board.usable(h)) continue;
        Seconds et = in.predictor->ExecTime(task.op, h);
        if (et < best_et) {
          best_et = et;
          best = h;
        }
      }
      if (best_et == std::numeric_limits<Seconds>::infinity()) break;
      Seconds end = board.earliest(best) + best_et +
                    in.predictor->TransferTime(task.id, best);
      bool start_now = board.free_now(best);
      board.Take(best, end);
      if (start_now) out->push_back({task.id, best, end});
    }
  }
};

}  // namespace

std::unique_ptr<Policy> MakeMctPolicy() { return std::make_unique<MctPolicy>(); }
std::unique_ptr<Policy> MakeMetPolicy() { return std::make_unique<MetPolicy>(); }

StatusOr<std::unique_ptr<Policy>> MakePolicy(std::string_view name) {
  if (name == "mct") return MakeMctPolicy();
  if (name == "met") return MakeMetPolicy();
  return Status::InvalidArgument("unknown scheduling policy '" +
                                 std::string(name) +
                                 "'; known policies: mct, met");
}

std::vector<Placement> Scheduler::Schedule(const SchedulingInput& in) {
  std::vector<Placement> placed;
  if (ready_.empty()) return placed;
  policy_->Place(ready_, in, &placed);
  if (placed.empty()) return placed;
  std::unordered_set<TaskId> taken;
  taken.reserve(placed.size() * 2);
  for (const Placement& p : placed) taken.insert(p.task);
  std::erase_if(ready_, [&](const ReadyTask& r) { return taken.count(r.id); });
  return placed;
}

}  // namespace gs
