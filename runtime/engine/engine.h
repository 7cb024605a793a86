// The engine: what the master program submitted becomes jobs on hosts,
// run from the engine's own thread (EngineLoop: one Boost.Asio
// io_context). The master program's thread calls in through the public
// methods, which are cheap except the ones documented as waiting.
//
// The Engine keeps the lock, the thread and the wiring; its collaborators
// own the rest (docs/design.md, "The engine's objects"): the Dispatcher
// the rounds, the DataMover the data, the HostMonitor lost hosts, the
// RunRecorder the history, the ResumeJournal resume. One mutex, mu_,
// guards the engine's state (GUARDED_BY below); collaborators without a
// lock of their own are members it guards, the others take it themselves
// or say REQUIRES(mu) where the caller holds it.
#ifndef GSRT_RUNTIME_ENGINE_ENGINE_H_
#define GSRT_RUNTIME_ENGINE_ENGINE_H_

#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "adapters/adapter.h"
#include "gs/gs_abi.h"
#include "runtime/base/clock.h"
#include "runtime/base/file_system.h"
#include "runtime/base/messages.h"
#include "runtime/base/mutex.h"
#include "runtime/base/status.h"
#include "runtime/config/config.h"
#include "runtime/engine/code_identity.h"
#include "runtime/engine/data_mover.h"
#include "runtime/engine/data_places.h"
#include "runtime/engine/dispatcher.h"
#include "runtime/engine/engine_loop.h"
#include "runtime/engine/host_monitor.h"
#include "runtime/engine/host_set.h"
#include "runtime/engine/host_sweeper.h"
#include "runtime/engine/job_numbers.h"
#include "runtime/engine/job_table.h"
#include "runtime/engine/master_files.h"
#include "runtime/engine/master_waits.h"
#include "runtime/engine/outcome_plan.h"
#include "runtime/engine/periodic_timers.h"
#include "runtime/engine/program.h"
#include "runtime/engine/progress_line.h"
#include "runtime/engine/rewinder.h"
#include "runtime/engine/run_console.h"
#include "runtime/engine/run_naming.h"
#include "runtime/engine/run_recorder.h"
#include "runtime/engine/run_stats.h"
#include "runtime/engine/stall_monitor.h"
#include "runtime/engine/sync_stop.h"
#include "runtime/engine/user_file_names.h"
#include "runtime/engine/work_dir.h"
#include "runtime/graph/file_table.h"
#include "runtime/graph/operation_table.h"
#include "runtime/graph/task_graph.h"
#include "runtime/history/history_records.h"
#include "runtime/history/run_records.h"
#include "runtime/observe/run_observer.h"
#include "runtime/sched/estimator_predictor.h"
#include "runtime/sched/exec_oracle.h"
#include "runtime/sched/host_health.h"
#include "runtime/sched/learned_availability.h"
#include "runtime/sched/link_model.h"
#include "runtime/sched/scheduler.h"

namespace boost::asio {
class io_context;
}

namespace gs {

class ResultCache;
class ResumeJournal;

// Results that last across runs (docs/reuse.md): a ready task whose key an
// earlier run of this work dir finished is done from the store
// `<work_dir>/store` instead of running.
struct ReuseOptions {
  bool on = false;
  // Say for each task that ran (up to 50) why it could not be reused.
  bool explain = false;
  // Bytes the store keeps at the run's end (0 = no limit).
  uint64_t limit = 0;
  // Operations that always run.
  std::set<std::string> never;
};
class StartWatch;
struct GtpInput;

// What the simulator (gsrt-sim) and the tests set in the engine; a
// program's run keeps the defaults.
struct EngineHooks {
  // Runs on a VirtualClock: the engine thread advances virtual time to the
  // next timer whenever the master waits and nothing else is ready
  // (engine_loop.h). Adapters get that clock.
  bool virtual_time = false;
  // What a lost host's results cost: "gtp-c-r" (copies elsewhere are
  // reused; the default), "gtp-r" (everything placed on the lost host is
  // rewound) or "restart" (every finished result is treated as lost).
  std::string rewind = "gtp-c-r";
  // Given execution times instead of learnt ones (may be null).
  std::shared_ptr<const ExecOracle> exec_oracle;
  // Makes the policy instead of the one `policy` names, which then only
  // labels it in messages (tests: a policy that refuses to place).
  std::function<std::unique_ptr<Policy>()> make_policy;
  // Called with the policy once it is made (to hand it a host model).
  std::function<void(Policy&)> configure_policy;
  // Where the engine's own file operations go (versions on the master's
  // machine, GS_Off's renames, the lock); null: this machine's
  // (RealFileSystem()). Not owned; must outlive the engine.
  FileSystem* file_system = nullptr;
};

// gsrt.yaml's keys named after an operation.
struct OperationSettings {
  // Seconds a job of the named operation may run; absent = no limit.
  std::map<std::string, Seconds> timeouts;
  // runtime.hosts: operations kept to hosts carrying one of the labels
  // (HostSetup::labels, or a host's name), by operation name.
  std::map<std::string, std::vector<std::string>> placement;
};

struct EngineOptions {
  std::string cwd;       // the master's working directory (absolute)
  std::string work_dir;  // absolute; versions in work_dir/data
  std::string program;   // for the history
  std::string policy = "mct";
  RetryBudgets retries;
  // Weights of the grank policy (paper 004 eq. 4-5).
  RankWeights rank;
  OperationSettings operations;
  std::string history_path;  // "" = no history
  std::string dot_path;      // "" = no DOT file
  bool progress = false;     // a progress line on stderr
  // Ctrl-C and SIGTERM stop the running jobs before the master exits
  // (workers run in their own process groups, so the terminal's signal
  // does not reach them).
  bool handle_signals = false;
  // First delay before reconnecting to a lost host; doubles up to the max.
  Seconds reconnect_backoff = 1;
  Seconds reconnect_backoff_max = 60;
  // Replicas of running tasks on idle slots (paper 001). The wqr, wqr-ft
  // and wqdr-ft policies turn it on when this says off.
  ReplicationConfig replication;
  // A host silent for longer than its heartbeat interval plus this is
  // suspect: FTMET/FTMCT skip it (paper 003's RTT bound).
  Seconds rtt_bound = 1;
  // Ready tasks, free slots and nothing running, moving or ending for this
  // long fail the ready tasks with a message (stall_monitor.h); 0 = never.
  Seconds stall_timeout = 60;
  // The identity of the workers' code (code_identity.h): the whole
  // worker's, journaled with every task, and each operation's, in the
  // keys of results that last across runs.
  CodeIdentity code_identity;
  // When set, computes code_identity on another thread while Start
  // connects the hosts (it runs ldd: ~0.1 s on a loaded machine, while
  // connecting a remote host mostly waits for it).
  std::function<CodeIdentity()> code_identity_of;
  // With a history: when the previous run of this program in this
  // directory was interrupted, reuse the tasks its journal says finished.
  bool resume = true;
  // With a history: results that last across runs (docs/reuse.md).
  ReuseOptions reuse;

  // Hosts prepared at once at the start (Adapter::Prepare: ssh logins and
  // installs; runtime.connect_parallel).
  int connect_parallel = 8;

  // No messages about hosts and no summary (the caller reports): the
  // engine's messages pass through QuietMessages.
  bool quiet = false;

  // Watch the run (the trace, the live page, the summary additions):
  // called as it goes, see runtime/observe/run_observer.h.
  std::vector<std::shared_ptr<RunObserver>> observers;

  // What the simulator and the tests change; a program leaves it alone.
  EngineHooks hooks;

  // Where what the user is told goes (the engine's and its adapters');
  // null: StderrMessages(). Not owned; must outlive the engine.
  MessageSink* messages = nullptr;
};

// One host to run jobs on, made on the engine's io_context.
struct HostSetup {
  std::string name;
  std::function<std::unique_ptr<Adapter>(boost::asio::io_context&, Clock&)>
      make;
  std::string worker;  // the worker executable's path on that host
  // Capacity: cores (the host's `slots`; 0: what the adapter offers once
  // connected) and memory in GB (0: not known, so not limited).
  int cores = 0;
  double memory_gb = 0;
  // What it carries for runtime.hosts (its name counts too).
  std::vector<std::string> labels;
  // Its GPUs, as CUDA_VISIBLE_DEVICES names them (gsrt.yaml's `gpus`, or
  // what was found on the master's machine for a local host); none: no
  // job that needs one goes there.
  std::vector<std::string> gpus;
  // Who names a job's devices: the master (declared or found ones), the
  // batch queue (job mode), or the pilots (their allocations', learned).
  GpuNaming gpu_naming = GpuNaming::kPool;
  // Runs a job over several nodes (a batch queue in job mode allocates
  // them): where an @MPI operation of more than one node may go.
  bool spans_nodes = false;
  // The allocation node it is (`mode: allocation`), and the hosts that are
  // nodes of the same allocation share a gang group ("": none): an @MPI job
  // over several nodes runs on a gang of one group's members at once.
  std::string node;
  std::string gang_group;
  // Jobs sent beyond the host's free slots, queued there to hide the round
  // trip (runtime/sched/prefetch.h); 0: none.
  int prefetch = 0;
  // Seconds of work per slot queued when jobs are short (PrefetchDepth);
  // 0: exactly `prefetch`.
  double prefetch_window = 0;
  // Adapters to try, in order, when the previous one does not connect (an
  // `adapter:` list in gsrt.yaml, as JavaGAT tries its adapters).
  std::vector<
      std::function<std::unique_ptr<Adapter>(boost::asio::io_context&, Clock&)>>
      fallbacks;
};

class Engine {
 public:
  explicit Engine(EngineOptions options);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Makes and connects the hosts, opens the history, starts the thread.
  // Fails (naming every host and why) when no host can be used.
  Status Start(std::vector<HostSetup> hosts);

  // Adds one call of `op` as a task. Cheap: no I/O, no waiting. Returns
  // kRefusedTask, adding nothing, when the operation's @Constraints fit no
  // host (Refusal says why).
  TaskId Submit(const gs_operation* op, const gs_arg* args);
  // Why calls of `op` are refused: the operation, its needs and every
  // host's capacity; Ok when they are not.
  Status Refusal(const gs_operation* op);

  // Waits for `task`; on success stores its results (see DecodeResults).
  Status WaitForResults(TaskId task, const gs_arg* args, void* return_slot);

  // Waits until every task submitted so far has finished.
  void Barrier();

  // GS_Open / GS_Close. Open waits only for the version it opens.
  StatusOr<int> Open(const char* name, int mode);
  // Closes `fd` (unless the caller already did, as fclose does) and makes
  // what was written the newest version.
  Status Close(int fd, bool already_closed = false);

  // Waits for everything, puts final versions under the user's names,
  // writes the DOT file and the summary, stops the thread. Returns 0 when
  // every task succeeded.
  int Stop();

  // Counters of the run (final after Stop(), when nothing writes them).
  const RunStats& stats() const NO_THREAD_SAFETY_ANALYSIS { return stats_; }
  // The engine's clock (virtual time in a simulation).
  Seconds Now() const { return loop_.made() ? loop_.clock().Now() : 0; }

  // Submission without a running engine thread, for the benchmark.
  const TaskGraph& graph() const NO_THREAD_SAFETY_ANALYSIS {
    return program_.graph;
  }

 private:
  struct Dispatch {
    HostId host;
    JobSpec spec;
    std::vector<VersionId> inputs;  // to stage on `host` first
    // Resuming: the interrupted run's batch job of the same task on this
    // host, to take over instead of submitting `spec` (ResumeJournal).
    std::optional<QueuedJob> adopt;
  };
  // What a job's end leaves to do once the engine mutex is released.
  struct Aftermath {
    std::vector<std::string> doomed;  // files to remove
    std::vector<std::pair<HostId, JobId>> cancels;
    std::vector<Dispatch> dispatches;
    bool record = false;  // enough rows pend: write them now (RecordPending)
  };

  // Start (engine.cc): the hosts, the thread's timers. Fails only when an
  // adapter could not be made or no host connects.
  Status ConnectHosts(std::vector<HostSetup>& hosts);
  // Connects `adapter` (its Prepare said `prepared`), trying `setup`'s
  // fallbacks until one connects; a host that does not connect is added
  // unusable (and named in `refused`).
  void AddHost(HostSetup& setup, std::unique_ptr<Adapter> adapter,
               Status prepared, StartWatch& watch, size_t watched,
               std::string* refused);
  void OnSignal(int signal);
  // Starts the engine thread and what it runs periodically.
  void StartThread();
  void ShutdownOnEngineThread();

  // Data (engine_data.cc; data_mover.h moves it). Engine thread: stages
  // the job's inputs onto its host, then submits it.
  class DataMoveLink;  // what the mover asks of the engine
  void StageAndSubmit(Dispatch d);
  // Master thread: waits until `v` is on the master's machine.
  Status BringToMasterLocked(MutexLock& lock, VersionId v) REQUIRES(mu_);
  Status FetchOnceLocked(MutexLock& lock, VersionId v) REQUIRES(mu_);

  // Scheduling rounds (engine_schedule.cc; the Dispatcher places, these
  // book and send).
  class DispatchLink;  // what the dispatcher asks of the engine
  void WakeLocked() REQUIRES(mu_);
  // One round; its placements booked into `out`.
  void ScheduleLocked(std::vector<Dispatch>* out) REQUIRES(mu_);
  // Builds the job of one instance of the booking's task on its host and
  // books it; it runs the booking's implementation (one of the operation's
  // @Implements alternatives) when given, else the operation the program
  // called; an MPI gang's other hosts hold its need too.
  Dispatch DispatchLocked(const Dispatcher::Booking& booking) REQUIRES(mu_);
  void Send(std::vector<Dispatch> dispatches);
  // Hands one job to its host's adapter: Submit, or Adopt (engine thread).
  void SubmitToHost(Dispatch d);

  // A job's end (engine_outcome.cc): PlanOutcome decides, these apply.
  // `host_at_fault` is false when the job never reached the host (its
  // inputs could not be staged): then a HostFailed does not mean the host
  // is lost.
  void OnJobDone(HostId host, JobReport report, bool host_at_fault = true);
  void ApplyOutcomeLocked(const OutcomePlan& plan, const JobEntry& job,
                          HostId host, JobReport& report,
                          const std::vector<JobId>& others, Aftermath* after)
      REQUIRES(mu_);
  void TaskSucceededLocked(const JobEntry& job, HostId host, JobReport& report,
                           const std::vector<JobId>& others, Aftermath* after)
      REQUIRES(mu_);
  // The outputs of `task` are where it ran on `host`.
  void PlaceOutputsLocked(TaskId task, HostId host, uint64_t bytes_out)
      REQUIRES(mu_);
  void TaskFailedLocked(const OutcomePlan& plan, TaskId task) REQUIRES(mu_);
  void FinishTaskLocked(TaskId task, std::vector<TaskId>* ready) REQUIRES(mu_);
  // `log_note`: where the logs came from (Exited::log_note), or "".
  void FailTaskLocked(TaskId task, const std::string& error,
                      const std::string& log_dir,
                      const std::string& log_note = "") REQUIRES(mu_);

  // Lost hosts (engine_rewind.cc; the Rewinder rewinds).
  class RewindLink;  // what the rewinder asks of the engine
  // The host is gone: no more jobs there, its copies dropped, and the
  // producers of versions only it held rewound.
  void HostLostLocked(HostId host, const std::string& why) REQUIRES(mu_);
  class MonitorLink;  // what the host monitor asks of the engine

  // Clearing hosts of what lost connections left (host_sweeper.h;
  // engine_sweep.cc answers it).
  class SweepLink;  // what the sweeper asks of the engine

  // Proactive policies: their periodic look at what runs
  // (engine_reconsider.cc).
  // One look; false once the run is stopping.
  bool Reconsider();
  // The stall watch (stall_monitor.h; engine_stall.cc answers it).
  class StallLink;  // what a look asks of the engine

  // The master's own files and the end of the run (engine_files.cc;
  // master_files.h puts the final versions in place).
  class FilesLink;  // what MasterFiles asks of the engine
  Status WaitVersionLocked(MutexLock& lock, VersionId v, const char* name)
      REQUIRES(mu_);
  // After the thread stopped: the data dir, the DOT file, the history.
  void CleanUpAfterRun();
  void ShowProgress();

  // The history's side in the engine (engine_history.cc); the recorder
  // (run_recorder.h) owns it. Start, the history open: predictions,
  // success rates and the policy's facts from earlier runs.
  void LearnFromHistory() REQUIRES(mu_);
  // Engine thread, no lock: writes what was recorded since the last call
  // (and the adapters' queue waits, the journal).
  void RecordPending();

  // Batch jobs an interrupted run left in the queue (engine_adopt.cc), on
  // the engine thread without the lock: ResumeJournal decides, these reach
  // the adapters. Records what the adapters queued (and commits it at once
  // with `commit`); true when there was something.
  bool RecordQueuedJobs(bool commit = false);
  // Hands every adapter the recorder of the batch jobs it is about to
  // submit (when the run keeps a journal).
  void RecordSubmissionsOfAdapters();
  // Cancels what no task takes over; `all` at the end of the run (every
  // job not taken over by then).
  void ForgetQueuedJobs(bool all);

  // Task journal and resume (engine_resume.cc; ResumeJournal decides).
  class JournalLink;  // what the journal asks of the engine
  // Start, after the history opened: the interrupted runs' journals (and,
  // after the engine thread started, their outputs on other hosts); the
  // result cache when reuse is on.
  void OpenJournal();
  void FetchResumeOutputs();
  // Engine thread, no lock, after a history commit: deletes the data of
  // versions collected before.
  void DeleteCollectedData();
  // Before the master reads `v`: recomputes it if needed and waits.
  Status RecoverCollectedLocked(MutexLock& lock, VersionId v) REQUIRES(mu_);
  // GS_Off, before any final version is moved onto its user's name: makes
  // again the final versions reused without data, and waits.
  void RecoverFinalVersionsLocked(MutexLock& lock) REQUIRES(mu_);

  // Results that last across runs (ResultCache decides; its link, in
  // engine_hosts.h, posts its steps and fetches what it stores).
  class ReuseLink;  // what the cache asks of the engine

  EngineOptions options_;
  // The files, operations, tasks and versions the program submitted.
  Program program_ GUARDED_BY(mu_);
  RunStats stats_ GUARDED_BY(mu_);

  // The messages and the progress line (drawn under mu_).
  RunConsole console_;
  // The master's waits: their gate, their count, the signal that ends them.
  MasterWaits waits_ GUARDED_BY(mu_);
  // The engine thread, its clock and timers; before the adapters (hosts_),
  // which use its io_context until they are destroyed.
  EngineLoop loop_;
  // The work dir: its lock, its file system, its job numbers.
  WorkDir work_dir_;
  // The history and the observers (run_recorder.h): under mu_, except its
  // writes (engine thread, no lock).
  RunRecorder recorder_;  // after console_, whose sink it speaks through
  HostSet hosts_;
  // Sweeps hosts of what lost connections left; GS_Off's final sweep.
  HostSweeper sweeper_;
  // The jobs out, by id, by task, and as a round reads them.
  JobTable jobs_ GUARDED_BY(mu_);
  // Where versions are, and what moves them between hosts.
  DataMover mover_;
  // Tasks and files in the program's own terms (for messages).
  RunNaming naming_ GUARDED_BY(mu_);
  // What the program opened with GS_Open; GS_Off's final versions.
  MasterFiles master_files_ GUARDED_BY(mu_);
  // Rewinds after a lost host or copy; knows where each task last ran.
  Rewinder rewinder_ GUARDED_BY(mu_);
  // The ready queue, the policy's rounds, retries and the predictor.
  Dispatcher dispatcher_ GUARDED_BY(mu_);
  // Fails a stuck run, reports a quiet one, watches the engine thread.
  StallMonitor stall_;
  // Host health, availability slots, lost hosts and their reconnects.
  HostMonitor monitor_;
  // What outlasts the run: the task journal (resume after a crash) and
  // the results kept for later runs.
  struct Memory {
    std::unique_ptr<ResumeJournal> journal;  // with a history only
    std::unique_ptr<ResultCache> cache;      // with a history and reuse on
  };
  Memory memory_;

  Mutex mu_;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_ENGINE_ENGINE_H_
