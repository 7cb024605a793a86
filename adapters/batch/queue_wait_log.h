// The queue waits of one batch host's jobs: this run's, to predict the
// next job's wait, and the history's newest ones, given at construction by
// whoever made the adapter. The adapter hands new waits to the engine
// (Adapter::TakeQueueWaits), which records them; it never opens the
// history itself.
#ifndef GSRT_ADAPTERS_BATCH_QUEUE_WAIT_LOG_H_
#define GSRT_ADAPTERS_BATCH_QUEUE_WAIT_LOG_H_

#include <optional>
#include <string>
#include <vector>

#include "adapters/adapter.h"
#include "adapters/batch/queue_wait_estimate.h"
#include "runtime/base/clock.h"

namespace gs {

class QueueWaitLog {
 public:
  // `past`: waits of this host from earlier runs, newest first.
  QueueWaitLog(std::string partition, std::vector<SizedWait> past);

  // A job of `shape` submitted at `submitted` started at `started`.
  void Add(Seconds submitted, Seconds started, const JobShape& shape);
  // The waits added since the last call.
  std::vector<QueueWaitSample> Take();

  const std::vector<QueueWaitSample>& waits() const { return all_; }
  // This run's waits, newest first, then the earlier runs'.
  std::vector<SizedWait> NewestFirst() const;
  // What they say of a job of `shape` (EstimateFromHistory); kept until
  // the next Add, since the scheduler asks for every prediction.
  WaitEstimate FromHistory(const JobShape& shape) const;

 private:
  std::string partition_;
  std::vector<SizedWait> past_;
  std::vector<QueueWaitSample> all_;
  size_t taken_ = 0;
  struct Memo {
    JobShape shape;
    WaitEstimate estimate;
  };
  mutable std::optional<Memo> memo_;
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_BATCH_QUEUE_WAIT_LOG_H_
