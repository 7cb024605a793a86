// The agent's logic (gsrt-agent's main is a thin shell around it): serves
// one master over one ByteStream, running jobs through a `runner` adapter
// (the local adapter in gsrt-agent, so its sandbox, output-rename and log
// rules hold) and staging files inside its work dir. No I/O of its own
// besides the staged files, so tests drive it in-process over a
// MemoryStream pair with any runner.
//
// What it does on each message is in docs/agent-protocol.md.
#ifndef GSRT_ADAPTERS_AGENT_AGENT_H_
#define GSRT_ADAPTERS_AGENT_AGENT_H_

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "adapters/adapter.h"
#include "adapters/agent/chunk_pump.h"
#include "adapters/agent/protocol.h"
#include "adapters/agent/staging_files.h"
#include "adapters/local/host_facts.h"
#include "adapters/transport/byte_stream.h"
#include "runtime/base/clock.h"
#include "runtime/base/messages.h"

namespace gs {

// "0.1.0": the gsrt release the agent was built from.
const char* AgentSoftwareVersion();

struct AgentOptions {
  // Absolute and canonical (no symlinks): staged paths must lie inside it.
  // The runner's work dir too.
  std::string work_dir;
  // Jobs the runner runs at once, as told to the master.
  int slots = 1;
  // GPUs the runner hands its jobs (a pilot's allocation's), as told to
  // the master.
  int gpus = 0;
  // The master sends a message at least this often (its heartbeat); after
  // 3 times this of silence the agent takes the master for lost, kills its
  // jobs and ends. 0: never (an ended stream is still noticed).
  Seconds heartbeat = 0;
  // Told to the master in HELLO.
  MachineFacts facts;
  ChunkPumpOptions pump;
  // Where the agent's log lines go, each "gsrt-agent: ...\n" (gsrt-agent:
  // its stderr; never stdout); null: StderrMessages(). Not owned; must
  // outlive the agent.
  MessageSink* messages = nullptr;
  // A pilot's agent outlives its master: when the stream ends or the
  // master falls silent without SHUTDOWN, the jobs keep running, their
  // reports are held, and `on_detached` (Start) says so; Reattach gives it
  // the next master. Otherwise the agent ends with the stream.
  bool outlive_master = false;
};

class Agent {
 public:
  // Runs once when the agent is done: OK after SHUTDOWN or an orderly end
  // of the stream, otherwise why (protocol error, lost master).
  using ExitCallback = std::function<void(Status)>;

  // `stream`, `runner` and `clock` must outlive the agent.
  Agent(ByteStream& stream, Adapter& runner, Clock& clock,
        AgentOptions options);
  // Shuts the runner down if still serving.
  ~Agent();

  Agent(const Agent&) = delete;
  Agent& operator=(const Agent&) = delete;

  // Connects the runner (a failure is told to the master at HELLO) and
  // starts reading the stream. With outlive_master, `on_detached` runs
  // (with why) each time the master is lost while jobs may go on.
  void Start(ExitCallback on_exit, ExitCallback on_detached = nullptr);

  // After on_detached: serves the next master on `stream` (which must
  // outlive the agent or the next Reattach). Its HELLO lists the jobs held
  // and their reports follow it.
  void Reattach(ByteStream& stream);
  bool detached() const { return detached_; }

  // Ends as on SHUTDOWN (for signals): jobs are killed, on_exit runs.
  void Stop(Status why);

  bool finished() const { return finished_; }
  int running() const { return static_cast<int>(running_.size()); }

 private:
  struct Upload {
    std::unique_ptr<IncomingFile> file;
    uint64_t declared_size = 0;
  };

  void OnData(std::string_view bytes);
  void Handle(agent::Message& message);
  void OnHello(const agent::Hello& hello);
  void OnRunJob(JobSpec spec);
  void OnPutBegin(const agent::PutBegin& m);
  void OnPutChunk(const agent::PutChunk& m);
  void OnPutEnd(const agent::PutEnd& m);
  void OnGetRequest(const agent::GetRequest& m);
  void OnRemove(const agent::Remove& m);
  void OnSweep(const agent::Sweep& m);
  void OnError(const agent::Error& m);
  void Send(const agent::Message& message);
  void SendError(uint64_t request, const Status& s);
  // A fatal protocol violation: ERROR 0 to the master, then Finish.
  void Fail(Status why);
  void Finish(Status why);
  // The master is lost: Detach with outlive_master, else Finish.
  void LoseMaster(Status why);
  void Detach(Status why);
  void ListenTo(ByteStream& stream);
  void ArmWatchdog();
  void Log(MessageKind kind, std::string_view line);

  ByteStream* stream_;
  Adapter& runner_;
  Clock& clock_;
  AgentOptions options_;
  ExitCallback on_exit_;
  ExitCallback on_detached_;
  Status runner_status_;
  agent::FrameDecoder decoder_;
  ChunkPump pump_;
  std::map<uint64_t, Upload> uploads_;
  std::set<JobId> running_;
  std::unique_ptr<Timer> watchdog_;
  Seconds last_heard_ = 0;
  bool hello_done_ = false;
  bool finished_ = false;
  bool detached_ = false;
  // Reports of jobs that ended while no master listened, in order.
  std::vector<JobReport> held_reports_;
  // With outlive_master: reports sent in the last kRecentReports seconds.
  // A master killed before it made one durable would run its task again,
  // so they are handed to the next master too, which takes what it lacks.
  struct SentReport {
    Seconds at = 0;
    JobReport report;
  };
  std::deque<SentReport> recent_reports_;
  static constexpr Seconds kRecentReports = 10;
  // Bumped at each new stream: an old stream's callbacks are ignored.
  uint64_t stream_generation_ = 0;
  // Cleared by the destructor: late runner callbacks must not touch us.
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_AGENT_AGENT_H_
