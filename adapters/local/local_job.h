// One job of the local adapter, from its submission to its report. It
// stages the job's inputs into its sandbox (work_dir/jobs/<id>), starts its
// worker process or hands it to a pooled worker (persistent or fork
// server), learns when the worker is done, collects its outputs and
// results, and keeps its sandbox as evidence when it failed. The contract
// it implements (outcomes, sandbox, logs, evidence) is the one stated in
// local_adapter.h.
//
// Ownership: LocalAdapter makes one LocalJob per submitted job (a
// shared_ptr: pending asio completions hold it too) and keeps the slots,
// the queue and the timers; the job borrows what the adapter lends it in a
// LocalJobHost. Threads: every call and callback runs on the thread running
// the host's io_context. Files: all through the host's FileSystem; the
// worker's process, its pidfd and its socket are real.
#ifndef GSRT_ADAPTERS_LOCAL_LOCAL_JOB_H_
#define GSRT_ADAPTERS_LOCAL_LOCAL_JOB_H_

#include <sys/resource.h>
#include <sys/types.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "adapters/job_runner.h"
#include "adapters/local/failure_evidence.h"
#include "adapters/local/sandbox_pool.h"
#include "adapters/local/worker_command.h"
#include "adapters/local/worker_pool.h"
#include "runtime/base/clock.h"
#include "runtime/base/file_system.h"
#include "runtime/base/messages.h"
#include "runtime/base/serve_protocol.h"
#include "runtime/jobs/job.h"
#include "runtime/jobs/worker_mode.h"

namespace gs {

// What the local adapter lends each of its jobs. Owned by the adapter; the
// pointers outlive every job it makes.
struct LocalJobHost {
  boost::asio::io_context* io = nullptr;
  FileSystem* fs = nullptr;
  SandboxPool* sandboxes = nullptr;
  FailureEvidence* evidence = nullptr;
  WorkerPool* workers = nullptr;
  // The host's launcher and environment for worker processes.
  const WorkerLaunch* launch = nullptr;
  // Where a sandbox whose evidence cannot be kept is reported (a warning).
  MessageSink* messages = nullptr;
  std::string host_name;
  std::string jobs_dir;  // work_dir/jobs: the sandboxes
  std::string logs_dir;  // work_dir/logs: logs of successful jobs
  WorkerMode mode = WorkerMode::kProcess;
  // Idle pooled workers kept at most (the adapter's slots).
  size_t max_idle_workers = 1;
  // /dev/null, the worker's stdin; opened by the adapter before any Launch.
  int devnull_fd = -1;
};

// The outcome of a job whose worker never ran: exit code 127, as a
// shell's for a command it cannot run, and `error` saying what to fix.
Exited NotStarted(std::string error);

class LocalJob : public std::enable_shared_from_this<LocalJob> {
 public:
  using DoneCallback = JobRunner::DoneCallback;
  // Runs on the io_context once the job's worker is gone: `reaped` with its
  // `wait_status`, or not (errno `wait_errno` says why it was lost).
  using Ended =
      std::function<void(const std::shared_ptr<LocalJob>& job, bool reaped,
                         int wait_status, int wait_errno)>;

  // `host` must outlive the job.
  LocalJob(const LocalJobHost& host, JobSpec spec, DoneCallback done,
           Seconds submitted);

  LocalJob(const LocalJob&) = delete;
  LocalJob& operator=(const LocalJob&) = delete;

  const JobSpec& spec() const { return spec_; }
  JobId id() const { return spec_.id; }
  // Cores of the adapter's slots the job holds: max(1, spec.cores).
  int cores() const;
  // Devices the adapter picked (a job that holds GPUs and names none; ""
  // for one that holds none where the adapter has some): told to the
  // worker in CUDA_VISIBLE_DEVICES and GSRT_GPUS. Before Stage.
  void GiveDevices(const std::string& devices);
  // Whether the job's environment names its devices already.
  bool NamesDevices() const;
  // Whether the job holds GPUs the adapter must pick (none named yet).
  bool WantsDevices() const { return spec_.gpus > 0 && !NamesDevices(); }
  const std::string& sandbox() const { return sandbox_; }
  const WorkerCommand& command() const { return cmd_; }
  // Bytes of the inputs that exist, as staged.
  uint64_t bytes_in() const { return bytes_in_; }

  // Builds the worker's command, sizes the inputs, takes a sandbox from the
  // pool and copies the inout inputs into it; a k-core job's OpenMP gets k
  // threads unless the user chose. The outcome to report when the job
  // cannot start, with no sandbox left behind; nullopt when staged.
  std::optional<JobOutcome> Stage();

  // After Stage: starts the worker (process mode) or sends the job to a
  // pooled one; `ended` runs later, once. The outcome to report when it
  // could not (nothing left running); nullopt when launched.
  std::optional<JobOutcome> Launch(Ended ended);

  // The adapter marks the job running at `now`, with its timeout timer
  // (null when it has none), which the job drops once it ended.
  void Began(Seconds now, std::unique_ptr<Timer> timeout);
  // Kills the worker for the job's timeout (TimedOut), or for a cancel
  // (Cancelled); a second request is ignored.
  void TimeOut();
  void Cancel();

  // After `ended`: what the job's end means. Collects the outputs and the
  // results of a worker that exited 0, keeps the logs of a successful job
  // and the sandbox of a failed one; the report's `ended` is left to the
  // caller.
  JobReport Conclude(bool reaped, int wait_status, int wait_errno);

  // Exited from the worker's wait status: success when it exited 0 and
  // wrote every output and its result file (outputs are then moved to their
  // destinations, the logs kept and the sandbox released to the pool).
  Exited Collect(int wait_status);

  // Shutdown: kills and reaps the worker, removes the sandbox; the job
  // will never be concluded.
  void Abandon();

  // A report of `outcome` at `now`, for a job that ends without Conclude
  // (never started, or abandoned).
  JobReport ReportOf(JobOutcome outcome, Seconds now) const;
  // Hands `report` to the job's callback, now or (Post) from the
  // io_context; either once. Post captures nothing of the job or adapter.
  void Deliver(JobReport report);
  void Post(JobReport report);

  bool finished() const { return finished_; }
  void set_finished() { finished_ = true; }
  bool started_process() const { return pid_ > 0; }

 private:
  // Stage's steps: the inputs' sizes (`absent` gets those not there), the
  // inout copies (but of absent inputs), the OpenMP threads.
  std::optional<JobOutcome> SizeInputs(std::vector<std::string>* absent);
  std::optional<JobOutcome> CopyInouts(const std::vector<std::string>& absent);
  void ChooseOpenMpThreads();
  std::optional<JobOutcome> Spawn();
  std::optional<JobOutcome> Serve();
  void WaitForExit();
  void OnExit();
  void OnReply(const boost::system::error_code& ec);
  void Kill();
  // "OP threw: WHAT" when the worker left the message of an exception,
  // "exit code N" otherwise.
  std::string ExitError(int code);
  // The job's result file: what left_ says of it, else what is there.
  StatusOr<std::string> ReadResult();
  // Whether the sandbox holds nothing but the files a pooled one keeps
  // once the outputs moved out: known from left_, else the pool looks.
  bool KnownClean() const;
  void KeepLogs(Exited& exited);
  // Moves the failed job's sandbox to the evidence; returns where it went
  // (the sandbox itself if it could not be moved).
  std::string KeepEvidence();
  // Removes the sandbox of a job that never ran (or was cancelled).
  void DropSandbox();

  const LocalJobHost& host_;
  FileSystem& fs_;
  JobSpec spec_;
  DoneCallback done_;
  Ended ended_;
  WorkerCommand cmd_;
  std::string sandbox_;
  pid_t pid_ = -1;
  // Readable when the worker has exited.
  boost::asio::posix::stream_descriptor pidfd_;
  // Pooled modes: the worker serving the job.
  std::unique_ptr<PersistentWorker> worker_;
  char reply_[kServeReplyBytes];
  // Pooled modes: the sandbox as the worker's reply described it; null
  // without a reply (then an earlier job's result file may be there).
  std::optional<ServeReply> left_;
  // Appended to the error of a failed job.
  std::string note_;
  std::unique_ptr<Timer> timeout_;
  Seconds submitted_ = 0;
  Seconds started_ = 0;
  uint64_t bytes_in_ = 0;
  rusage usage_{};
  bool cancel_requested_ = false;
  bool timed_out_ = false;
  // Reported (or being reported) already; late asio completions ignore it.
  bool finished_ = false;
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_LOCAL_LOCAL_JOB_H_
