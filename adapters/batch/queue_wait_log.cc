#include "adapters/batch/queue_wait_log.h"

#include <algorithm>

namespace gs {

QueueWaitLog::QueueWaitLog(std::string partition, std::vector<Seconds> past)
    : partition_(std::move(partition)), past_(std::move(past)) {}

void QueueWaitLog::Add(Seconds submitted, Seconds started) {
  QueueWaitSample w;
  w.partition = partition_;
  w.submitted = submitted;
  w.started = std::max(started, submitted);
  all_.push_back(std::move(w));
}

std::vector<QueueWaitSample> QueueWaitLog::Take() {
  std::vector<QueueWaitSample> out(all_.begin() + taken_, all_.end());
  taken_ = all_.size();
  return out;
}

Seconds QueueWaitLog::Mean() const {
  if (all_.empty()) return -1;
  Seconds sum = 0;
  for (const QueueWaitSample& w : all_) sum += w.started - w.submitted;
  return sum / static_cast<double>(all_.size());
}

Seconds QueueWaitLog::RecentMean(int limit) const {
  Seconds sum = 0;
  size_t n = 0;
  for (const QueueWaitSample& w : all_) {
    sum += w.started - w.submitted;
    ++n;
  }
  for (size_t i = 0; i < past_.size() && i < static_cast<size_t>(limit); ++i) {
    sum += past_[i];
    ++n;
  }
  return n == 0 ? -1 : sum / static_cast<double>(n);
}

}  // namespace gs
