// What the two modes of a batch host (job_adapter.h, pilot_adapter.h)
// share: the options, the batch commands (run through the login host when
// `via` is set), the queue waits they learn, the kind and the work dir,
// and the check of the batch system at connect. Each mode derives from it
// and adds only how it runs jobs.
#ifndef GSRT_ADAPTERS_BATCH_BATCH_HOST_ADAPTER_H_
#define GSRT_ADAPTERS_BATCH_BATCH_HOST_ADAPTER_H_

#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "adapters/adapter_defaults.h"
#include "adapters/batch/batch_adapter.h"
#include "adapters/batch/batch_commands.h"
#include "adapters/batch/queue_wait_log.h"

namespace gs {

class BatchHostAdapter : public AdapterDefaults {
 public:
  std::string_view kind() const override { return system_kind_; }
  std::string work_dir() const override { return options_.host.workdir; }
  std::vector<QueueWaitSample> TakeQueueWaits() override {
    return waits_.Take();
  }
  std::vector<QueuedJob> TakeQueuedJobs() override {
    return std::exchange(queued_, {});
  }
  void RecordSubmissionsWith(SubmissionRecorder record) override {
    record_submissions_ = std::move(record);
  }
  // Cancels batch jobs an interrupted master left (errors ignored: most
  // have ended by themselves); voids the elements it was submitting when
  // it stopped, or cancels the jobs that claimed them (batch_claim.h).
  void Forget(std::vector<QueuedJob> jobs) override;

  // For tests: the queue waits seen.
  const QueueWaitLog& queue_waits() const { return waits_; }

 protected:
  BatchHostAdapter(boost::asio::io_context& io, Clock& clock,
                   BatchAdapterOptions options,
                   std::unique_ptr<BatchSystem> system);

  boost::asio::io_context& io() const { return io_; }
  Clock& clock() const { return clock_; }
  const BatchAdapterOptions& options() const { return options_; }
  BatchCommands& commands() { return commands_; }
  QueueWaitLog& waits() { return waits_; }
  const QueueWaitLog& waits() const { return waits_; }

  // Checks the batch system (reachable, partition, submit options) with a
  // trivial script written in `dir`; the largest job array it takes.
  StatusOr<int> CheckSystem(const std::string& dir);

  // A batch job just queued or taken over, for the engine to record.
  void Queued(QueuedJob job) { queued_.push_back(std::move(job)); }
  // Batch jobs about to be submitted: durable when this returns (nothing
  // to do when the engine keeps no journal).
  void RecordSubmissions(const std::vector<QueuedJob>& jobs) {
    if (record_submissions_) record_submissions_(jobs);
  }
  // An interrupted master's element that was being submitted when it
  // stopped: "" when no job will run it (voided now, or voided already),
  // else the batch id of the job that claimed it. Logs which.
  std::string VoidOrFindClaim(const QueuedJob& job);
  // Run dirs of interrupted masters holding an element voided by this
  // one: kept, so that its job finds the claim whenever it starts.
  const std::set<std::string>& voided_run_dirs() const {
    return voided_run_dirs_;
  }

  // "host 'NAME'", for messages.
  std::string Host() const { return "host '" + options_.host.name + "'"; }

 private:
  boost::asio::io_context& io_;
  Clock& clock_;
  BatchAdapterOptions options_;
  std::string system_kind_;
  BatchCommands commands_;
  QueueWaitLog waits_;
  std::vector<QueuedJob> queued_;
  SubmissionRecorder record_submissions_;
  std::set<std::string> voided_run_dirs_;
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_BATCH_BATCH_HOST_ADAPTER_H_
