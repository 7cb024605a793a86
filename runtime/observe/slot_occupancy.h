// The one definition of running and queued on a host (issue 36): of the
// jobs sent to a host, in the order they were sent, those that fit its
// slots run; the rest (prefetched, runtime/sched/prefetch.h) wait in the
// host's queue, first in first out as the host starts them, and take the
// slots a job frees at the moment its end is heard. A job's run time
// starts when it got its slots. The engine keeps one per host; the
// summary, `gsrt show`, the page and the progress line count from it.
// Pure; not thread-safe.
#ifndef GSRT_RUNTIME_OBSERVE_SLOT_OCCUPANCY_H_
#define GSRT_RUNTIME_OBSERVE_SLOT_OCCUPANCY_H_

#include <cstdint>
#include <deque>
#include <vector>

#include "runtime/base/clock.h"
#include "runtime/jobs/job.h"

namespace gs {

class SlotOccupancy {
 public:
  // How a job's end changed the host: when the job got its slots (the end
  // itself when it never did), whether it was still queued, and the
  // queued jobs that took the slots it freed (at the end), in order.
  struct Ended {
    Seconds got_slots = 0;
    bool was_queued = false;
    std::vector<JobId> now_running;
  };

  // A job needing `cores` (at least 1) sent at `now` to a host of `slots`
  // (0: not known, so every job runs). True when it runs at once, false
  // when it is queued.
  bool Start(JobId job, int cores, int slots, Seconds now);
  // The job ended (or left the host's queue) at `now`. Unknown jobs: an
  // Ended at `now` with nothing moved.
  Ended End(JobId job, int slots, Seconds now);

  int running() const { return static_cast<int>(running_.size()); }
  int queued() const { return static_cast<int>(queued_.size()); }

 private:
  struct Held {
    JobId job = 0;
    int cores = 1;
    Seconds since = 0;  // got its slots (running) or was sent (queued)
  };
  // Moves queued jobs onto free slots from the front, at `now`.
  void Fill(int slots, Seconds now, std::vector<JobId>* moved);

  std::vector<Held> running_;
  std::deque<Held> queued_;
  int used_cores_ = 0;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_OBSERVE_SLOT_OCCUPANCY_H_
