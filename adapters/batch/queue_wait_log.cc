#include "adapters/batch/queue_wait_log.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "runtime/history.h"

namespace gs {

QueueWaitLog::QueueWaitLog(std::string history_path, std::string host,
                           std::string partition)
    : history_path_(std::move(history_path)),
      host_(std::move(host)),
      partition_(std::move(partition)) {}

QueueWaitLog::~QueueWaitLog() {
  Status s = Flush();
  if (!s.ok()) {
    std::fprintf(stderr, "gsrt: warning: queue waits of host %s: %s\n",
                 host_.c_str(), s.message().c_str());
  }
}

void QueueWaitLog::Add(Seconds submitted, Seconds started) {
  QueueWait w;
  w.host = host_;
  w.partition = partition_;
  w.submitted = submitted;
  w.started = std::max(started, submitted);
  all_.push_back(std::move(w));
}

Status QueueWaitLog::Flush() {
  if (history_path_.empty() || written_ == all_.size()) return Status::Ok();
  HistoryOptions options;
  options.busy_timeout_ms = 15000;
  auto history = History::Open(history_path_, options);
  if (!history.ok()) return history.status();
  auto run = (*history)->LatestRunId();
  for (; written_ < all_.size(); ++written_) {
    QueueWait w = all_[written_];
    if (run.ok() && *run > 0) w.run_id = *run;
    if (Status s = (*history)->RecordQueueWait(w); !s.ok()) return s;
  }
  return Status::Ok();
}

Seconds QueueWaitLog::Mean() const {
  if (all_.empty()) return -1;
  Seconds sum = 0;
  for (const QueueWait& w : all_) sum += w.started - w.submitted;
  return sum / static_cast<double>(all_.size());
}

Seconds QueueWaitLog::RecentMean(int limit) const {
  Seconds sum = 0;
  size_t n = 0;
  for (const QueueWait& w : all_) {
    sum += w.started - w.submitted;
    ++n;
  }
  if (!history_path_.empty() && ::access(history_path_.c_str(), R_OK) == 0) {
    if (auto history = History::Open(history_path_); history.ok()) {
      if (auto waits = (*history)->LoadQueueWaits(host_, limit); waits.ok()) {
        for (const QueueWait& w : *waits) {
          sum += w.started - w.submitted;
          ++n;
        }
      }
    }
  }
  return n == 0 ? -1 : sum / static_cast<double>(n);
}

}  // namespace gs
