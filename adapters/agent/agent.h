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

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>

#include "adapters/adapter.h"
#include "adapters/agent/chunk_pump.h"
#include "adapters/agent/protocol.h"
#include "adapters/agent/staging_files.h"
#include "adapters/local/host_facts.h"
#include "adapters/transport/byte_stream.h"
#include "runtime/base/clock.h"

namespace gs {

// "0.1.0": the gsrt release the agent was built from.
const char* AgentSoftwareVersion();

struct AgentOptions {
  // Absolute and canonical (no symlinks): staged paths must lie inside it.
  // The runner's work dir too.
  std::string work_dir;
  // Jobs the runner runs at once, as told to the master.
  int slots = 1;
  // The master sends a message at least this often (its heartbeat); after
  // 3 times this of silence the agent takes the master for lost, kills its
  // jobs and ends. 0: never (an ended stream is still noticed).
  Seconds heartbeat = 0;
  // Told to the master in HELLO.
  MachineFacts facts;
  ChunkPumpOptions pump;
  // Where log lines go (gsrt-agent: stderr; never stdout).
  std::function<void(std::string_view)> log;
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
  // starts reading the stream.
  void Start(ExitCallback on_exit);

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
  void OnError(const agent::Error& m);
  void Send(const agent::Message& message);
  void SendError(uint64_t request, const Status& s);
  // A fatal protocol violation: ERROR 0 to the master, then Finish.
  void Fail(Status why);
  void Finish(Status why);
  void ArmWatchdog();
  void Log(std::string_view line);

  ByteStream& stream_;
  Adapter& runner_;
  Clock& clock_;
  AgentOptions options_;
  ExitCallback on_exit_;
  Status runner_status_;
  agent::FrameDecoder decoder_;
  ChunkPump pump_;
  std::map<uint64_t, Upload> uploads_;
  std::set<JobId> running_;
  std::unique_ptr<Timer> watchdog_;
  Seconds last_heard_ = 0;
  bool hello_done_ = false;
  bool finished_ = false;
  // Cleared by the destructor: late runner callbacks must not touch us.
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_AGENT_AGENT_H_
