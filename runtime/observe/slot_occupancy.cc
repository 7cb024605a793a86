#include "runtime/observe/slot_occupancy.h"

#include <algorithm>

namespace gs {

bool SlotOccupancy::Start(JobId job, int cores, int slots, Seconds now) {
  queued_.push_back(Held{job, std::max(1, cores), now});
  std::vector<JobId> moved;
  Fill(slots, now, &moved);
  return !moved.empty();  // only this one can have moved
}

SlotOccupancy::Ended SlotOccupancy::End(JobId job, int slots, Seconds now) {
  Ended out;
  out.got_slots = now;
  auto running = std::find_if(running_.begin(), running_.end(),
                              [job](const Held& h) { return h.job == job; });
  if (running != running_.end()) {
    out.got_slots = std::min(running->since, now);
    used_cores_ -= running->cores;
    running_.erase(running);
  } else {
    auto queued = std::find_if(queued_.begin(), queued_.end(),
                               [job](const Held& h) { return h.job == job; });
    if (queued == queued_.end()) return out;
    out.was_queued = true;
    queued_.erase(queued);
  }
  Fill(slots, now, &out.now_running);
  return out;
}

void SlotOccupancy::Fill(int slots, Seconds now, std::vector<JobId>* moved) {
  // First in, first out, as the host's queue starts them; a job wider
  // than the host runs alone rather than never.
  while (!queued_.empty() && (slots <= 0 || running_.empty() ||
                              used_cores_ + queued_.front().cores <= slots)) {
    Held h = queued_.front();
    queued_.pop_front();
    h.since = std::max(h.since, now);
    used_cores_ += h.cores;
    running_.push_back(h);
    moved->push_back(h.job);
  }
}

}  // namespace gs
