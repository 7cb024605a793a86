// Pilot mode of a batch host: `pilots` batch jobs each run gsrt-agent,
// which connects back to this master's PilotListener and greets it with
// the run's token; every pilot then serves jobs through its own
// AgentAdapter. PilotFleet (pilot_fleet.h) keeps the pilots; this adapter
// is the host's Adapter and routes jobs and files to them. A lost pilot
// fails its jobs with HostFailed and is replaced; with `max_pilots` the
// count follows the work (pilot_scaling.h); with `pilot_reattach` each job
// is recorded before it is sent, so a restarted master takes over the
// pilots and jobs of a killed one (docs/slurm.md; docs/design.md,
// "Pilots across a master crash" in "Resume").
// Made by MakeBatchAdapter, owned by the engine; every method runs on the
// engine's thread (Connect: see there).
#ifndef GSRT_ADAPTERS_BATCH_PILOT_ADAPTER_H_
#define GSRT_ADAPTERS_BATCH_PILOT_ADAPTER_H_

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "adapters/batch/batch_host_adapter.h"
#include "adapters/batch/pilot_fleet.h"

namespace gs {

class PilotAdapter : public BatchHostAdapter {
 public:
  PilotAdapter(boost::asio::io_context& io, Clock& clock,
               BatchAdapterOptions options,
               std::unique_ptr<BatchSystem> system);
  ~PilotAdapter() override;

  void SetMessages(MessageSink* sink) override;
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
  bool connected() const override { return fleet_.connected(); }
  void Submit(JobSpec spec, DoneCallback done) override;
  void NoteBacklog(int tasks) override { fleet_.NoteBacklog(tasks); }
  void Cancel(JobId id) override;
  // A job of the interrupted run that its pilot ran: taken over when that
  // pilot came back and still holds it, else submitted afresh.
  void Adopt(QueuedJob job, JobSpec spec, DoneCallback done) override;
  // Pilots of the interrupted run that came back stay; the others leave
  // the queue. Jobs of it nobody adopted are cancelled on their pilot.
  void Forget(std::vector<QueuedJob> jobs) override;
  // Jobs not sent yet report Cancelled; then the fleet's Shutdown.
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
  int core_capacity() const override { return fleet_.core_capacity(); }
  int gpu_capacity() const override { return fleet_.gpu_capacity(); }
  // The largest serving pilot's memory: a job runs inside one pilot.
  uint64_t memory_capacity() const override { return fleet_.memory_capacity(); }

  // For tests: the batch ids of pilots currently queued or serving.
  std::vector<std::string> PilotJobIds() const { return fleet_.PilotJobIds(); }

 private:
  // A job waiting to be recorded (then sent) to its pilot.
  struct Outgoing {
    JobSpec spec;
    DoneCallback done;
  };

  // The work dir and the pilots' dir made, the batch system checked.
  Status PrepareHost();
  // Records the jobs Submit queued (committed), then sends them.
  void SendOutgoing();
  void SendTo(Pilot& pilot, JobSpec spec, DoneCallback done);
  // `done`, counting the job as work of `pilot` until it reports.
  DoneCallback Running(Pilot& pilot, JobId id, int cores, int gpus,
                       DoneCallback done);
  // GPUs the job holds, which its pilot's agent names.
  static int GpusOf(const JobSpec& spec);
  // `done`, counting the transfer as work of `pilot` until it ends: a
  // pilot moving files is not idle.
  StatusCallback Busy(Pilot& pilot, StatusCallback done);
  // Reports `outcome` for a job that never ran, later on the loop.
  void ReportUnrun(const JobSpec& spec, DoneCallback done, JobOutcome outcome);
  int UnsentCores() const;

  PilotFleet fleet_;
  std::vector<Outgoing> outgoing_;
  bool send_posted_ = false;
  std::map<JobId, Pilot*> job_pilot_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_BATCH_PILOT_ADAPTER_H_
