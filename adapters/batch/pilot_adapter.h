// Pilot mode of a batch host: `pilots` batch jobs each run gsrt-agent,
// which connects back to this master's PilotListener and greets it with
// the run's token; every pilot then serves jobs through its own
// AgentAdapter, and this adapter spreads jobs over the pilots.
//
// A pilot that is lost (killed, cancelled from outside, past its walltime,
// its node gone) fails its jobs with HostFailed, an infrastructure failure
// the runtime retries without charging the tasks; a new pilot is submitted
// in its place. Shutdown() cancels every pilot job still queued or running.
//
// With `max_pilots` above `pilots`, the count follows the work
// (pilot_scaling.h decides, at every queue poll and when the engine's
// backlog changes): a pilot more while tasks wait and none is pending, and
// pilots idle for `pilot_linger` seconds stopped, down to `pilots`. Jobs
// then go to the oldest pilot with a free slot, so the newest idle first.
//
// Across a master crash (`pilot_reattach` > 0): each job is recorded as
// run by its pilot before it is sent. A pilot whose master is lost keeps
// its jobs and their results and reads its token file for the next
// master. A master started again in the same work dir rewrites the dead
// master's token file with its own token and address, waits a few seconds
// for the pilots to come back ("NAME@BATCHID"), and takes over the jobs
// the engine adopts (Adopt); what nobody adopts is cancelled (Forget).
#ifndef GSRT_ADAPTERS_BATCH_PILOT_ADAPTER_H_
#define GSRT_ADAPTERS_BATCH_PILOT_ADAPTER_H_

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "adapters/agent/agent_adapter.h"
#include "adapters/batch/batch_host_adapter.h"
#include "adapters/batch/pilot_listener.h"

namespace gs {

class PilotAdapter : public BatchHostAdapter {
 public:
  PilotAdapter(boost::asio::io_context& io, Clock& clock,
               BatchAdapterOptions options,
               std::unique_ptr<BatchSystem> system);
  ~PilotAdapter() override;

  // Checks the batch system, listens, submits the pilots and waits until
  // they are all connected, or 5 s after the first one connected, or
  // pilot_start_timeout (an error if none connected). Runs `io` itself,
  // as AgentAdapter::Connect does.
  Status Connect() override;
  // OK at once while a pilot serves; otherwise new pilots are submitted
  // and `done` fires when one connects (or fails after the timeout).
  void Reconnect(std::function<void(Status)> done) override;
  // The serving pilots' free cores as one pool: a job larger than any
  // pilot runs alone in one and overdraws it, and the engine, which counts
  // the host's cores summed, must not see the others' as free meanwhile.
  int FreeSlots() const override;
  bool connected() const override;
  void Submit(JobSpec spec, DoneCallback done) override;
  void NoteBacklog(int tasks) override;
  void Cancel(JobId id) override;
  // A job of the interrupted run that its pilot ran: taken over when that
  // pilot came back and still holds it, else submitted afresh.
  void Adopt(QueuedJob job, JobSpec spec, DoneCallback done) override;
  // Pilots of the interrupted run that came back stay; the others leave
  // the queue. Jobs of it nobody adopted are cancelled on their pilot.
  void Forget(std::vector<QueuedJob> jobs) override;
  void Shutdown() override;
  bool shares_master_files() const override { return options().host.shared_fs; }
  void Put(std::string master_path, std::string host_path,
           StatusCallback done) override;
  void Get(std::string host_path, std::string master_path,
           StatusCallback done) override;
  void Remove(std::string host_path) override;
  void Probe(ProbeCallback done) override;
  // The serving pilots' slots, summed (each sized by its allocation unless
  // gsrt.yaml gives `slots`).
  int core_capacity() const override;
  // The largest serving pilot's memory: a job runs inside one pilot.
  uint64_t memory_capacity() const override;

  // For tests: the batch ids of pilots currently queued or serving.
  std::vector<std::string> PilotJobIds() const;

 private:
  enum class PilotState { kQueued, kConnecting, kReady, kGone };
  struct Pilot {
    std::string name;
    std::string batch_id;
    std::string job_name;  // the batch job's name, to list it by
    PilotState state = PilotState::kQueued;
    Seconds submitted = 0;
    int slots = 0;    // its share of `slots`; 0: what its allocation gives
    int missing = 0;  // queue listings in a row that did not show it
    int running = 0;  // jobs and file transfers it runs now
    int cores = 0;    // cores its jobs hold (may exceed its slots)
    Seconds idle_since = 0;   // when it connected or its last job ended
    bool lost = false;        // retired: its output is kept for the user
    bool returned = false;    // an interrupted master's, come back to us
    bool was_queued = false;  // an interrupted master's, queued then
    std::unique_ptr<AgentAdapter> agent;
  };
  // A job waiting to be recorded (then sent) to its pilot.
  struct Outgoing {
    JobSpec spec;
    DoneCallback done;
  };

  Status Prepare();
  Status SubmitPilot(int slots);
  // An interrupted master's pilot greeted us: a Pilot for it.
  Pilot* Returned(const std::string& name, const std::string& batch_id);
  // The pilots of the dead masters whose token files this one took over
  // that the queue still holds, queued or running, become this master's
  // (pilot_record.h): a queued one keeps its place in the queue and serves
  // this run when it starts.
  void TakeOverQueuedPilots();
  // The queue's listing (batch id -> state) of each job name, each listed
  // once.
  using Listings =
      std::map<std::string, StatusOr<std::map<std::string, std::string>>>;
  Listings ListByJobName(const std::vector<std::string>& job_names);
  // At the shutdown: until the queue lists none of `pilots` (bounded).
  void WaitUntilUnlisted(const std::vector<const Pilot*>& pilots);
  // Waits in Connect() for pilots of a dead master to come back.
  void AwaitReturningPilots(int want);
  // Records the jobs Submit queued (committed), then sends them.
  void SendOutgoing();
  void SendTo(Pilot& pilot, JobSpec spec, DoneCallback done);
  void HostFailedReport(const JobSpec& spec, DoneCallback done,
                        const std::string& why);
  bool reattaches() const { return options().host.batch.pilot_reattach > 0; }
  void OnPilot(std::string name, std::unique_ptr<ByteStream> stream);
  void OnPilotReady(Pilot& pilot, Status s);
  // Notices lost pilots and pilots that left the queue, and submits
  // replacements. `list` also consults the queue.
  void Maintain(bool list);
  void Retire(Pilot& pilot, const std::string& why);
  // Carries out DecidePilots (pilot_scaling.h): submits pilots up to the
  // floor or for the backlog, and stops pilots idle past the linger.
  void Scale();
  // Stops a pilot that has had no job for `idle` seconds.
  void Release(Pilot& pilot, Seconds idle);
  bool scales() const;
  // Where Submit sends a job: the serving pilot with the most free slots,
  // or, when the count follows the work, the oldest with a free slot.
  // Slots of each pilot given to jobs not sent yet.
  using Taken = std::map<const Pilot*, int>;
  Pilot* PilotForJob(const Taken* taken = nullptr);
  static int FreeOf(const Pilot& pilot, const Taken* taken);
  // `done`, counting the transfer as work of `pilot` until it ends: a
  // pilot moving files is not idle.
  StatusCallback Busy(Pilot& pilot, StatusCallback done);
  void ArmTick();
  void FinishWaiters(const Status& s);
  Pilot* ReadyPilot(const Taken* taken = nullptr);
  int AlivePilots() const;

  std::string token_;
  std::string token_file_;
  // Token files of dead masters rewritten for this one (removed at the end).
  std::vector<std::string> taken_over_files_;
  // Pilots of a dead master found running in the queue by
  // TakeOverQueuedPilots; -1 when it found none recorded.
  int taken_over_running_ = -1;
  std::vector<Outgoing> outgoing_;
  bool send_posted_ = false;
  std::string script_dir_;
  std::string job_name_;
  std::string connect_to_;  // HOST:PORT the pilots connect to
  std::unique_ptr<PilotListener> listener_;
  std::vector<std::unique_ptr<Pilot>> pilots_;
  std::map<JobId, Pilot*> job_pilot_;
  std::vector<std::function<void(Status)>> waiters_;
  std::unique_ptr<Timer> tick_;
  std::unique_ptr<Timer> wait_deadline_;
  std::string last_failure_;
  int next_pilot_ = 0;
  int failed_starts_ = 0;  // pilots in a row that ended before connecting
  int backlog_ = 0;        // NoteBacklog's latest
  bool scale_posted_ = false;
  bool prepared_ = false;
  bool shut_down_ = false;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_BATCH_PILOT_ADAPTER_H_
