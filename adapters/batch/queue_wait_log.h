// Collects the queue waits of one batch host's jobs and writes them to the
// history at the end of the run (Flush, or the destructor), tied to the
// newest run there. Writing at the end keeps the engine's history writes
// (a batched transaction held up to a second) free of a second writer.
#ifndef GSRT_ADAPTERS_BATCH_QUEUE_WAIT_LOG_H_
#define GSRT_ADAPTERS_BATCH_QUEUE_WAIT_LOG_H_

#include <string>
#include <vector>

#include "runtime/history_records.h"
#include "runtime/status.h"

namespace gs {

class QueueWaitLog {
 public:
  // `history_path` "" records nothing.
  QueueWaitLog(std::string history_path, std::string host,
               std::string partition);
  ~QueueWaitLog();

  void Add(Seconds submitted, Seconds started);
  // Writes what was added since the last flush.
  Status Flush();

  const std::vector<QueueWait>& waits() const { return all_; }
  // Mean of the waits seen in this run; -1 when none.
  Seconds Mean() const;
  // Mean of this run's waits and the newest `limit` of the host in the
  // history (what a probe reports to the ranking tool); -1 when none.
  Seconds RecentMean(int limit = 20) const;

 private:
  std::string history_path_;
  std::string host_;
  std::string partition_;
  std::vector<QueueWait> all_;
  size_t written_ = 0;
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_BATCH_QUEUE_WAIT_LOG_H_
