// Prefetch (runtime/sched/prefetch.h): after a round left tasks waiting,
// hosts with a prefetch depth get jobs beyond their free slots, which they
// queue. As far as the engine knows such a job runs on that host: a lost
// host fails it and it is placed again, a cancel reaches the host, which
// drops it from its queue. Not combined with replication, which wants the
// same idle capacity for replicas.
#include <algorithm>

#include "runtime/engine/dispatcher.h"
#include "runtime/sched/prefetch.h"

namespace gs {

void Dispatcher::Prefetch(std::vector<HostState>* states, const BookFn& book) {
  std::vector<int> depth(hosts_.size()), capacity(hosts_.size());
  bool any = false;
  for (HostId h = 0; h < hosts_.size(); ++h) {
    const HostEntry& host = *hosts_[h];
    depth[h] = host.usable && host.adapter->connected()
                   ? PrefetchDepth(host.prefetch, host.prefetch_window,
                                   host.cores, host.mean_job)
                   : 0;
    capacity[h] = host.cores;
    any = any || depth[h] > 0;
  }
  if (!any) return;
  // Every job booked so far, this round's first pass included.
  hosts_.HostStates(states);
  LeaveGpusOut(states);
  for (const auto& [id, job] : jobs_) {
    (*states)[job.host].AddBusy(job.predicted_end, job.need);
  }
  if (!PrefetchStates(depth, capacity, states)) return;
  SchedulingInput in{clock_->Now(), states, predictor_.get()};
  std::vector<Placement> placed = scheduler_.Schedule(in);
  std::vector<const gs_operation*> implementations =
      ChooseImplementations(*states, placed);
  for (size_t i = 0; i < placed.size(); ++i) {
    const Placement& p = placed[i];
    book({p.task, p.host, p.predicted_end, /*replica=*/false,
          implementations.empty() ? nullptr : implementations[i]});
  }
}

}  // namespace gs
