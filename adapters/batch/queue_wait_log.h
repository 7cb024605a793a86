// The queue waits of one batch host's jobs: this run's, to predict the
// next job's wait, and the history's newest ones, given at construction by
// whoever made the adapter. The adapter hands new waits to the engine
// (Adapter::TakeQueueWaits), which records them; it never opens the
// history itself.
#ifndef GSRT_ADAPTERS_BATCH_QUEUE_WAIT_LOG_H_
#define GSRT_ADAPTERS_BATCH_QUEUE_WAIT_LOG_H_

#include <string>
#include <vector>

#include "adapters/adapter.h"
#include "runtime/base/clock.h"

namespace gs {

class QueueWaitLog {
 public:
  // `past`: waits of this host from earlier runs, newest first.
  QueueWaitLog(std::string partition, std::vector<Seconds> past);

  void Add(Seconds submitted, Seconds started);
  // The waits added since the last call.
  std::vector<QueueWaitSample> Take();

  const std::vector<QueueWaitSample>& waits() const { return all_; }
  // Mean of the waits seen in this run; -1 when none.
  Seconds Mean() const;
  // Mean of this run's waits and the newest `limit` earlier ones (what a
  // probe reports to the ranking tool); -1 when none.
  Seconds RecentMean(int limit = 20) const;

 private:
  std::string partition_;
  std::vector<Seconds> past_;
  std::vector<QueueWaitSample> all_;
  size_t taken_ = 0;
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_BATCH_QUEUE_WAIT_LOG_H_
