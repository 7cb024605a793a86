// Job mode of a batch host: every gsrt job becomes a batch job that runs
// `gsrt-agent --batch-job DIR` (batch_job_runner.h). Jobs submitted in the
// same turn of the engine go out together as job arrays of at most
// max_array elements (the cluster's MaxArraySize by default).
//
// A job's fate is its exit record: found -> its report; not found while
// the queue still lists the job -> still waiting or running; not found and
// not listed twice in a row -> HostFailed (cancelled outside gsrt, killed
// at its time limit, node lost): an infrastructure failure, never a
// silent success. Cancel and Shutdown cancel the batch jobs.
#ifndef GSRT_ADAPTERS_BATCH_JOB_ADAPTER_H_
#define GSRT_ADAPTERS_BATCH_JOB_ADAPTER_H_

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "adapters/batch/batch_host_adapter.h"

namespace gs {

class BatchJobAdapter : public BatchHostAdapter {
 public:
  BatchJobAdapter(boost::asio::io_context& io, Clock& clock,
                  BatchAdapterOptions options,
                  std::unique_ptr<BatchSystem> system);
  ~BatchJobAdapter() override;

  // Checks the batch system (reachable, partition, options) and reads the
  // largest job array it takes.
  Status Connect() override;
  int FreeSlots() const override;
  // queue_wait_estimate().seconds.
  Seconds expected_start_delay() const override;
  // How long a job of the host's size submitted now will wait
  // (queue_wait_estimate.h): the batch system's estimate, read at most
  // kSystemEstimateLife ago (the latest start `squeue --start` gives this
  // run's pending jobs, or `sbatch --test-only`'s at Connect), else the
  // waits of jobs of its size, this run's and the history's.
  WaitEstimate queue_wait_estimate() const;
  static constexpr Seconds kSystemEstimateLife = 60;
  void Submit(JobSpec spec, DoneCallback done) override;
  // Takes over a batch job an interrupted master of the same work dir
  // submitted: its exit record when there, else it is watched (listed by
  // its own job name) until it leaves one; gone without one, `spec` is
  // submitted as a new batch job.
  void Adopt(QueuedJob job, JobSpec spec, DoneCallback done) override;
  // Cancels them (BatchHostAdapter) and removes their batch directories at
  // this run's end, as those of the jobs it took over.
  void Forget(std::vector<QueuedJob> jobs) override;
  void Cancel(JobId id) override;
  // Cancels every batch job of the run; outstanding jobs report Cancelled
  // before this returns.
  void Shutdown() override;
  bool shares_master_files() const override { return true; }
  void Probe(ProbeCallback done) override;

  // For tests: the batch ids (array elements) of the jobs submitted and
  // not yet reported, the batch submissions made, the largest array.
  std::vector<std::string> BatchIds() const;
  int submissions() const { return submissions_; }
  int max_array() const { return max_array_; }

 private:
  struct Entry {
    JobSpec spec;   // until submitted
    int cores = 1;  // of the host's slots, while the job is ours
    int nodes = 1;  // it spans (an MPI job's)
    DoneCallback done;
    Seconds submitted = 0;
    std::string dir;       // the batch directory
    int index = 0;         // element in it
    std::string batch_id;  // "" until submitted
    int missing = 0;       // listings in a row without it
    // Taken over from an interrupted master: `spec` is kept, to run it
    // again if the queue lost the job.
    bool adopted = false;
  };

  // Queues job `id` for the next Flush.
  void Enqueue(JobId id);
  void Flush();
  void SubmitChunk(std::vector<JobId> ids);
  void Poll(bool list);
  // Reads the system's estimate of when our pending jobs start.
  void ReadStartEstimates(const std::string& names,
                          const std::map<std::string, std::string>& listed);
  void ArmTick();
  void Report(JobId id, JobOutcome outcome, Seconds started, Seconds ended);
  void Report(JobId id, JobReport report);

  // The batch system's latest estimated start of a job of ours (seconds
  // since the epoch), and when it was read.
  std::optional<Seconds> system_start_;
  Seconds system_start_read_ = 0;
  std::string run_dir_;
  std::string job_name_;
  std::set<std::string> adopted_names_;  // earlier masters' job names
  std::set<std::string> old_run_dirs_;   // and their batch directories
  int max_array_ = 1;
  int slots_ = 1;
  std::map<JobId, Entry> jobs_;
  std::vector<JobId> pending_;  // submitted to us, not yet to the queue
  bool flush_posted_ = false;
  int reporting_ = 0;  // reports posted, not yet delivered
  int next_batch_ = 0;
  int submissions_ = 0;
  int ticks_ = 0;
  bool connected_ = false;
  bool shut_down_ = false;
  std::unique_ptr<Timer> tick_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_BATCH_JOB_ADAPTER_H_
