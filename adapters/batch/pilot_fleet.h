// The pilots of one batch host in pilot mode: submits them (a script that
// runs gsrt-agent --connect, and one batch job each), listens for them,
// turns each greeting into an AgentAdapter, and keeps the count right:
// lost pilots replaced, the count following the work (pilot_scaling.h),
// idle ones released, a dead master's pilots taken over (docs/design.md,
// "Resume"). Shutdown cancels them all and removes their files. It does
// not route jobs: PilotAdapter picks a pilot and tells the fleet when work
// starts and ends on it, which is what scaling judges idleness by.
// Owned by PilotAdapter. Everything runs on the io_context's thread (the
// engine's), except Connect, which runs `io` itself where nobody else
// does. Pilots are never removed before the fleet goes (a gone one stays
// in state kGone), so a Pilot* handed out stays valid as long as it.
#ifndef GSRT_ADAPTERS_BATCH_PILOT_FLEET_H_
#define GSRT_ADAPTERS_BATCH_PILOT_FLEET_H_

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "adapters/agent/agent_adapter.h"
#include "adapters/batch/batch_adapter.h"
#include "adapters/batch/batch_commands.h"
#include "adapters/batch/pilot_listener.h"
#include "adapters/batch/queue_wait_log.h"
#include "adapters/batch/unlisted_wait.h"
#include "runtime/base/messages.h"

namespace gs {

enum class PilotState { kQueued, kConnecting, kReady, kGone };

struct Pilot {
  std::string name;
  std::string batch_id;
  std::string job_name;  // the batch job's name, to list it by
  PilotState state = PilotState::kQueued;
  Seconds submitted = 0;
  int slots = 0;           // its share of `slots`; 0: what its allocation gives
  int missing = 0;         // queue listings in a row that did not show it
  int running = 0;         // jobs and file transfers it runs now
  int cores = 0;           // cores its jobs hold (may exceed its slots)
  int gpus = 0;            // GPUs its jobs hold (its agent names them)
  Seconds idle_since = 0;  // when it connected or its last work ended
  bool lost = false;       // retired: its output is kept for the user
  bool returned = false;   // an interrupted master's, come back to us
  bool was_queued = false;  // an interrupted master's, queued then
  std::unique_ptr<AgentAdapter> agent;
};

// What the fleet uses of its adapter; all of it outlives the fleet.
struct PilotFleetSetup {
  boost::asio::io_context* io = nullptr;
  Clock* clock = nullptr;
  const BatchAdapterOptions* options = nullptr;
  BatchCommands* commands = nullptr;
  QueueWaitLog* waits = nullptr;  // a new pilot's wait in the queue
  std::string kind;               // "slurm" or "pbs", for the agents
  // A pilot's batch job queued or taken over, for the engine to record.
  std::function<void(QueuedJob)> queued;
  // Cores of jobs routed but not sent yet: not free for scaling.
  std::function<int()> unsent_cores;
};

class PilotFleet {
 public:
  // What jobs routed but not sent yet hold of each pilot.
  struct Held {
    int cores = 0;
    int gpus = 0;
  };
  using Taken = std::map<const Pilot*, Held>;

  explicit PilotFleet(PilotFleetSetup setup);
  // As Shutdown; a wait for cancelled pilots to leave the queue that the
  // loop did not see to its end is finished here (UnlistedWait).
  ~PilotFleet();
  PilotFleet(const PilotFleet&) = delete;
  PilotFleet& operator=(const PilotFleet&) = delete;

  // Where the fleet and its pilots' agents say what happens.
  void set_messages(MessageSink* sink);

  // The token, the listener, this master's token file, and (reattaching)
  // the dead masters' token files and queued pilots taken over. The
  // caller made script_dir() and checked the batch system. Once.
  Status Prepare();
  bool prepared() const { return prepared_; }
  bool shut_down() const { return shut_down_; }

  // Submits pilots up to `pilots` (after waiting a few seconds for a dead
  // master's to come back) and runs `io` until they are all connected, or
  // 5 s after the first one connected, or pilot_start_timeout (an error
  // if none connected). After Prepare.
  Status Connect();
  // OK when a pilot serves; otherwise `done` fires when one connects, or
  // with an error after pilot_start_timeout or too many failed starts.
  // After Prepare, before Shutdown.
  void Reconnect(std::function<void(Status)> done);
  // The engine's backlog (tasks waiting), for scaling; decided later on
  // the same thread.
  void NoteBacklog(int tasks);
  // Cancels every pilot job still queued or running, closes the listener,
  // removes the token files and the pilots' files (a lost pilot's output
  // kept in failed/batch/). The files of pilots that had not started go
  // once the queue no longer lists them (UnlistedWait): later, on a timer.
  // Waiters of Reconnect get Cancelled.
  void Shutdown();

  // The serving pilot with the most free slots, counting `taken`.
  Pilot* ReadyPilot(const Taken* taken = nullptr);
  // Where a job goes: ReadyPilot, or, when the count follows the work,
  // the oldest serving pilot with a free slot (the newest go idle first).
  // A job holding `gpus` goes to a pilot with that many free, or else the
  // one with the most (its agent starts it when they free).
  Pilot* PilotForJob(const Taken* taken = nullptr, int gpus = 0);
  // A pilot of an interrupted master that came back with batch id `id`,
  // serving (`serving`) or merely not gone; null when none.
  Pilot* Returned(const std::string& batch_id, bool serving);
  // Work (a job of `cores` and `gpus`, or a transfer: 0) started or ended
  // on `pilot`.
  void WorkStarted(Pilot& pilot, int cores, int gpus = 0);
  void WorkEnded(Pilot& pilot, int cores, int gpus = 0);

  // The serving pilots' offered cores minus those their jobs hold.
  int FreeCores() const;
  int core_capacity() const;
  // The GPUs the serving pilots' allocations show.
  int gpu_capacity() const;
  uint64_t memory_capacity() const;
  bool connected() const;
  // The batch ids of pilots queued or serving.
  std::vector<std::string> PilotJobIds() const;
  const std::string& job_name() const { return job_name_; }
  const std::string& script_dir() const { return script_dir_; }
  bool reattaches() const { return options().host.batch.pilot_reattach > 0; }
  // Whether the count follows the work (max_pilots above pilots).
  bool scales() const;

 private:
  boost::asio::io_context& io() const { return *setup_.io; }
  Clock& clock() const { return *setup_.clock; }
  const BatchAdapterOptions& options() const { return *setup_.options; }
  BatchCommands& commands() const { return *setup_.commands; }
  MessageSink& messages() const { return *messages_; }
  std::string Host() const { return "host '" + options().host.name + "'"; }

  Status Listen();
  Status SubmitPilot(int slots);
  // The dead masters' pilots that the queue still holds become ours.
  void TakeOverQueuedPilots();
  // In Connect: waits for pilots of a dead master to come back.
  void AwaitReturningPilots(int want);
  // An interrupted master's pilot greeted us: a Pilot for it.
  Pilot* AddReturned(const std::string& name, const std::string& batch_id);
  void OnPilot(std::string name, std::unique_ptr<ByteStream> stream);
  void OnPilotReady(Pilot& pilot, Status s);
  // Notices lost pilots and pilots that left the queue, then scales.
  // `list` also consults the queue.
  void Maintain(bool list);
  void Retire(Pilot& pilot, const std::string& why);
  // Carries out DecidePilots: submits up to the floor or for the backlog,
  // releases pilots idle past the linger.
  void Scale();
  void Release(Pilot& pilot, Seconds idle);
  void ArmTick();
  void FinishWaiters(const Status& s);
  int AlivePilots() const;
  int ReadyPilots() const;
  static int FreeOf(const Pilot& pilot, const Taken* taken);
  static int FreeGpusOf(const Pilot& pilot, const Taken* taken);
  // Removes the files of `pilots` (a lost one's output kept).
  void RemoveFiles(const std::vector<const Pilot*>& pilots);

  PilotFleetSetup setup_;
  MessageSink* messages_ = &StderrMessages();
  std::string script_dir_;
  std::string token_;
  std::string token_file_;
  std::string job_name_;
  std::string connect_to_;  // HOST:PORT the pilots connect to
  // Token files of dead masters rewritten for this one (removed at the end).
  std::vector<std::string> taken_over_files_;
  // Pilots of a dead master found running in the queue by
  // TakeOverQueuedPilots; -1 when it found none recorded.
  int taken_over_running_ = -1;
  std::unique_ptr<PilotListener> listener_;
  std::vector<std::unique_ptr<Pilot>> pilots_;
  std::vector<std::function<void(Status)>> waiters_;
  std::unique_ptr<Timer> tick_;
  std::unique_ptr<Timer> wait_deadline_;
  // Pilots cancelled before they started, leaving the queue (Shutdown).
  std::unique_ptr<UnlistedWait> unlisted_;
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

#endif  // GSRT_ADAPTERS_BATCH_PILOT_FLEET_H_
