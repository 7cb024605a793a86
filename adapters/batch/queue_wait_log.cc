#include "adapters/batch/queue_wait_log.h"

#include <algorithm>

namespace gs {

QueueWaitLog::QueueWaitLog(std::string partition, std::vector<SizedWait> past)
    : partition_(std::move(partition)), past_(std::move(past)) {}

void QueueWaitLog::Add(Seconds submitted, Seconds started,
                       const JobShape& shape) {
  QueueWaitSample w;
  w.partition = partition_;
  w.submitted = submitted;
  w.started = std::max(started, submitted);
  w.cores = shape.cores;
  w.nodes = shape.nodes;
  w.walltime = shape.walltime;
  all_.push_back(std::move(w));
  memo_.reset();
}

std::vector<QueueWaitSample> QueueWaitLog::Take() {
  std::vector<QueueWaitSample> out(all_.begin() + taken_, all_.end());
  taken_ = all_.size();
  return out;
}

std::vector<SizedWait> QueueWaitLog::NewestFirst() const {
  std::vector<SizedWait> out;
  out.reserve(all_.size() + past_.size());
  for (auto w = all_.rbegin(); w != all_.rend(); ++w) {
    out.push_back(
        {{w->cores, w->nodes, w->walltime}, w->started - w->submitted});
  }
  out.insert(out.end(), past_.begin(), past_.end());
  return out;
}

WaitEstimate QueueWaitLog::FromHistory(const JobShape& shape) const {
  if (!memo_ || !(memo_->shape == shape)) {
    memo_ = Memo{shape, EstimateFromHistory(NewestFirst(), shape)};
  }
  return memo_->estimate;
}

}  // namespace gs
