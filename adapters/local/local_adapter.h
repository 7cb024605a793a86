// The `local` adapter: runs each job as a worker process on this machine,
// started with posix_spawn (never a shell) and waited for on the engine's
// io_context through a pidfd, so no thread is spent per job; with
// `workers` kPersistent or kFork, as a request to a persistent worker or a
// fork server (worker_pool.h), with the same sandbox, files, outcomes and
// logs. A job runs in SANDBOX = work_dir/jobs/<job id>; its outputs become
// their `dest` only after the worker exited 0 and wrote every declared
// output (worker_command.h). Each job's life is a LocalJob (local_job.h);
// the adapter keeps the slots, the queue, the pools of sandboxes and
// workers, and the reactor. One work dir serves one master at a time.
// Kept logs, failure evidence, sandbox reuse and the worker modes:
// docs/algorithms.md, "The local adapter's jobs".
#ifndef GSRT_ADAPTERS_LOCAL_LOCAL_ADAPTER_H_
#define GSRT_ADAPTERS_LOCAL_LOCAL_ADAPTER_H_

#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "adapters/adapter_defaults.h"
#include "adapters/local/failure_evidence.h"
#include "adapters/local/local_job.h"
#include "adapters/local/sandbox_pool.h"
#include "adapters/local/worker_pool.h"
#include "runtime/base/clock.h"
#include "runtime/base/file_system.h"
#include "runtime/jobs/gpu_pool.h"
#include "runtime/jobs/worker_mode.h"

namespace gs {

struct LocalAdapterOptions {
  // Jobs that run at once. Default: the number of hardware threads (at
  // least 1).
  int slots = DefaultSlots();
  // Absolute directory for sandboxes (work_dir/jobs) and kept logs
  // (work_dir/logs); created when missing. Required.
  std::string work_dir;
  // Names this host in reports and error messages.
  std::string host_name = "local";
  // Evidence of failed attempts (work_dir/failed/<session>, see
  // failure_evidence.h) older than this many seconds is removed at
  // Connect; 0 keeps it until the user removes it. Default: 30 days.
  Seconds keep_failed = 30 * 86400;
  // One process per job, persistent workers (`NAME-worker serve`), or a
  // process forked per job by fork servers (`NAME-worker fork-server`).
  WorkerMode workers = WorkerMode::kProcess;
  // When persistent workers are replaced (fork servers never are).
  WorkerPoolLimits worker_limits;
  // Devices handed to jobs that hold GPUs and name none (an agent's jobs
  // on a pilot's allocation: protocol 2.6), one job each; the jobs that
  // hold none see none (CUDA_VISIBLE_DEVICES empty). Default: none (such
  // a job fails; the others keep the environment's).
  std::vector<std::string> gpus;
  // The host's env, setup and launcher (worker_launch.h): the setup runs
  // at the first Connect, and a failing one fails it. Default: none.
  HostEnvironment environment;

  static int DefaultSlots();
};

class LocalAdapter : public AdapterDefaults {
 public:
  // Callbacks run on `io`; Submit, Cancel and Shutdown must be called on the
  // thread running `io`. `io`, `clock` and `fs` must outlive the adapter.
  LocalAdapter(boost::asio::io_context& io, Clock& clock,
               LocalAdapterOptions options, FileSystem* fs = &RealFileSystem());
  // As Shutdown(): running jobs are killed and their callbacks fire.
  ~LocalAdapter() override;

  LocalAdapter(const LocalAdapter&) = delete;
  LocalAdapter& operator=(const LocalAdapter&) = delete;

  std::string_view kind() const override { return "local"; }
  void SetMessages(MessageSink* sink) override;

  // Creates work_dir/jobs and work_dir/logs and opens /dev/null; says what
  // to fix when the work dir is not usable.
  Status Connect() override;

  // slots - running - queued, never negative.
  int FreeSlots() const override;

  // Starts the job now when a slot is free, otherwise queues it (FIFO).
  // `done` gets Exited success (exit 0, every output, the result file),
  // Exited{code, "exit code N"}, Exited{128 + S, "killed by signal S
  // (SIGxxx)"}, Exited{127, what to fix} (a worker that cannot be started:
  // missing, not executable, input missing), TimedOut, Cancelled (Cancel,
  // Shutdown), or HostFailed (a work dir that cannot be used).
  void Submit(JobSpec spec, DoneCallback done) override;

  // Kills the job (SIGKILL to its process group); done fires with
  // Cancelled. A queued job is dropped and reported Cancelled.
  void Cancel(JobId id) override;

  // Kills every job, waits for their processes, removes their sandboxes and
  // fires their callbacks with Cancelled before returning. Submit after
  // Shutdown reports HostFailed until Connect() is called again.
  void Shutdown() override;

  // Staging: the local host sees the master's files, so the runtime needs
  // none; these are plain local copies for callers that stage anyway.
  std::string work_dir() const override { return options_.work_dir; }
  // Copies to a temporary beside `host_path`, renamed when complete (the
  // parent directories are created). `done` fires later, on the io_context.
  void Put(std::string master_path, std::string host_path,
           StatusCallback done) override;
  void Get(std::string host_path, std::string master_path,
           StatusCallback done) override;
  // Deletes the file, if it is there.
  void Remove(std::string host_path) override;
  // Inside an agent, before its SWEEP: drops the idle sandboxes it keeps
  // for reuse (none while jobs run).
  void Sweep(std::string owner, std::vector<std::string> keep) override;

  // Reads this machine's cores, memory (/proc/meminfo MemTotal and
  // MemAvailable) and 1-minute load (/proc/loadavg) on the io_context; rtt
  // is the clock time from the call to the answer. bandwidth stays 0 (the
  // host shares the master's files). Fails as Connect() does when the work
  // dir is not usable, so a probe sees what a run would.
  void Probe(ProbeCallback done) override;
  // This machine's MemTotal (the same figure an agent's HELLO carries).
  uint64_t memory_capacity() const override;

  // Jobs started and not yet reported; for tests and status displays.
  int running() const { return static_cast<int>(running_.size()); }
  // Persistent workers idle, and started so far; for tests.
  size_t idle_workers() const { return workers_.idle(); }
  int workers_started() const { return workers_.started(); }

 private:
  using JobPtr = std::shared_ptr<LocalJob>;

  void Start(const JobPtr& job);
  // Marks the job running and arms its timeout.
  void Track(const JobPtr& job);
  // Reports a job whose worker is gone (LocalJob::Ended).
  void Finish(const JobPtr& job, bool reaped, int wait_status, int wait_errno);
  void StartQueued();
  // Reports a job that never ran, from the io_context (not from inside
  // Submit).
  void PostFailure(const JobPtr& job, JobOutcome outcome);
  Status EnsureOpen();
  // Put and Get: a copy of `from` that `to` shows whole or not at all (the
  // parent directories of `to` are created).
  Status CopyAtomically(const std::string& from, const std::string& to);

  boost::asio::io_context& io_;
  Clock& clock_;
  FileSystem& fs_;
  LocalAdapterOptions options_;
  std::string jobs_dir_;
  std::string logs_dir_;
  SandboxPool sandboxes_;
  FailureEvidence evidence_;
  WorkerLaunch launch_;  // filled by EnsureOpen; workers_ points at it
  bool launch_ready_ = false;
  WorkerPool workers_;
  // Lent to every job; its devnull_fd is opened by EnsureOpen.
  LocalJobHost host_;
  bool dirs_ready_ = false;
  bool shut_down_ = false;
  std::unordered_map<JobId, JobPtr> running_;
  std::deque<JobPtr> queued_;
  // Slots are cores: a job holds max(1, spec.cores) of them.
  int busy_cores_ = 0;
  int queued_cores_ = 0;
  GpuPool gpus_;  // options_.gpus
  // Whether a job holding `cores` may start now (one larger than the host
  // starts alone rather than never).
  bool Fits(int cores) const {
    return busy_cores_ == 0 || busy_cores_ + cores <= options_.slots;
  }
  // Fits, and the GPUs it must be handed are free.
  bool Fits(const LocalJob& job) const;
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_LOCAL_LOCAL_ADAPTER_H_
