// The master's side of the agent protocol: an Adapter that runs jobs and
// stages files on a host through one gsrt-agent reached over any
// ByteStream (a local child's pipe, an ssh exec channel, a TCP connection
// from a pilot job). The stream comes from a factory so that Connect() can
// start a new agent after the old one was lost.
//
// Liveness: a HEARTBEAT goes out every `heartbeat_interval`; when nothing
// (no frame at all) came from the agent for `heartbeat_timeout`, or the
// stream ends, or the agent breaks the protocol, the connection is lost:
// every outstanding job reports HostFailed{reason} exactly once, pending
// transfers fail, and FreeSlots() is 0 until Connect() succeeds again.
#ifndef GSRT_ADAPTERS_AGENT_AGENT_ADAPTER_H_
#define GSRT_ADAPTERS_AGENT_AGENT_ADAPTER_H_

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>

#include "adapters/adapter_defaults.h"
#include "adapters/agent/chunk_pump.h"
#include "adapters/agent/protocol.h"
#include "adapters/agent/staging_files.h"
#include "adapters/transport/byte_stream.h"
#include "runtime/base/clock.h"

namespace boost::asio {
class io_context;
}  // namespace boost::asio

namespace gs {

struct AgentAdapterOptions {
  // What kind() says; an adapter built on this one (ssh) names itself.
  std::string kind = "agent";
  // Names the host in reports and error messages.
  std::string host_name = "agent";
  // Seconds Connect() waits for the agent's HELLO.
  Seconds connect_timeout = 30;
  // Seconds between HEARTBEATs; 0 sends none (then only an ended stream
  // is noticed).
  Seconds heartbeat_interval = 5;
  // Seconds of silence from the agent after which it is taken for lost;
  // 0 means 3 * heartbeat_interval.
  Seconds heartbeat_timeout = 0;
  // What shares_master_files() says: true only when the host sees the
  // master's files at the same paths (an agent on this machine).
  bool shares_master_files = false;
  // Chunk size and flow control of Put().
  ChunkPumpOptions pump;
  // The master's failed/ dir: a failed job's stdout and stderr are fetched
  // there (fetched_logs.h) before its report goes on, when the host does
  // not share the master's files; "" fetches nothing. `logs_host` names
  // the host's directory there ("": host_name).
  std::string fetch_logs_to;
  std::string logs_host;
};

// Makes the stream to a freshly started agent (or says why it cannot).
using ByteStreamFactory =
    std::function<StatusOr<std::unique_ptr<ByteStream>>()>;

class AgentAdapter : public AdapterDefaults {
 public:
  // Callbacks run on `io`; every method must be called on the thread
  // running `io` (Connect(): see there). `io` and `clock` must outlive the
  // adapter.
  AgentAdapter(boost::asio::io_context& io, Clock& clock,
               ByteStreamFactory connect, AgentAdapterOptions options);
  // As Shutdown().
  ~AgentAdapter() override;

  AgentAdapter(const AgentAdapter&) = delete;
  AgentAdapter& operator=(const AgentAdapter&) = delete;

  std::string_view kind() const override { return options_.kind; }

  // ConnectAsync(), then runs `io` itself until the handshake ended (at
  // most connect_timeout, measured on the Clock, whose timers must run on
  // `io`). Call it where nobody else runs `io` (the engine connects its
  // hosts before starting its thread); on the io thread use ConnectAsync.
  // Connecting again after a lost connection starts a new agent.
  Status Connect() override;

  // Starts a stream from the factory and the HELLO exchange; `done` runs
  // once, later, with OK or why the agent cannot be used.
  void ConnectAsync(StatusCallback done);

  // The agent's slots minus the jobs outstanding; 0 when not connected.
  int FreeSlots() const override;

  void Submit(JobSpec spec, DoneCallback done) override;
  void Cancel(JobId id) override;

  // Tells the agent to stop (it kills its jobs) and closes the stream;
  // outstanding jobs report Cancelled and transfers fail with Cancelled
  // before this returns. Connect() may follow.
  void Shutdown() override;

  // Sends a HEARTBEAT and answers when its ACK comes back: rtt is that
  // round trip, cores and memory come from the agent's HELLO, load1 from
  // the ACK. Unavailable when not connected or if the connection is lost
  // first.
  void Probe(ProbeCallback done) override;

  bool shares_master_files() const override {
    return options_.shares_master_files;
  }
  // The agent's work dir (from its HELLO); "" before the first connection.
  std::string work_dir() const override { return hello_.work_dir; }
  uint64_t memory_capacity() const override { return hello_.memory_total; }
  // The slots the agent offers (its HELLO); 0 before it greeted.
  int core_capacity() const override { return static_cast<int>(hello_.slots); }
  int gpu_capacity() const override { return static_cast<int>(hello_.gpus); }

  // `host_path` is absolute under work_dir() or relative to it; the agent
  // refuses anything else. Put streams the file in chunks as the stream
  // drains (never the whole file in memory).
  void Put(std::string master_path, std::string host_path,
           StatusCallback done) override;
  void Get(std::string host_path, std::string master_path,
           StatusCallback done) override;
  void Remove(std::string host_path) override;
  // Sent only to an agent of protocol 2.3 or later; the others keep what
  // their work dir holds.
  void Sweep(std::string owner, std::vector<std::string> keep) override;

  bool connected() const override { return state_ == State::kReady; }
  Seconds last_heard() const override { return last_heard_; }
  Seconds heartbeat_interval() const override {
    return options_.heartbeat_interval;
  }
  // The agent's HELLO: software version and host facts.
  const agent::Hello& agent_hello() const { return hello_; }
  // Why the last connection ended; "" while connected.
  const std::string& lost_reason() const { return lost_reason_; }
  int outstanding() const { return static_cast<int>(jobs_.size()); }

  // Jobs of an earlier master that the agent held when it greeted (a pilot
  // that outlived its master) and that nobody took over yet: running ones
  // hold a slot each until they end or DropHeld.
  std::vector<JobId> held_jobs() const;
  // Whether the agent holds job `old_id` of an earlier master, running or
  // ended, and nobody took it over yet.
  bool Holds(JobId old_id) const;
  // Takes over held job `old_id` (Holds must be true) for `spec`, whose id
  // the report carries and whose cores it holds.
  void AdoptHeld(JobId old_id, const JobSpec& spec, DoneCallback done);
  // Cancels held job `old_id` (nobody takes it over); its report is
  // dropped.
  void DropHeld(JobId old_id);

 private:
  enum class State { kIdle, kConnecting, kReady, kLost, kShutDown };
  struct Job {
    DoneCallback done;
    Seconds submitted = 0;
    int cores = 1;        // slots are cores: what the job holds of hello_.slots
    JobId report_as = 0;  // a held job taken over: this master's id
  };
  struct Transfer {
    StatusCallback done;
    std::unique_ptr<IncomingFile> file;  // Get only
    std::string what;                    // for messages
  };

  void OnData(std::string_view bytes);
  void Handle(agent::Message& message);
  void OnHello(const agent::Hello& hello);
  void OnHeartbeatAck(const agent::HeartbeatAck& ack);
  void OnError(const agent::Error& error);
  void OnJobFinished(JobReport report);
  void OnGetChunk(const agent::GetChunk& chunk);
  void OnGetEnd(const agent::GetEnd& end);
  void FinishTransfer(uint64_t id, Status s);
  // Get() of the last `tail` bytes only (0: all).
  void Fetch(std::string host_path, std::string master_path, uint64_t tail,
             StatusCallback done);
  // Fetches the logs of failed `report` (fetch_logs_to), then calls `done`
  // with its log_dir on the master and a note; false when there is
  // nothing to fetch.
  bool FetchLogs(JobReport& report, DoneCallback& done);
  void Send(const agent::Message& message);
  void ArmHeartbeat();
  // Ends the connection: state becomes `next`; jobs report `outcome`.
  void Drop(State next, const Status& why, JobOutcome outcome);
  void Lose(const Status& why);
  void PostReport(DoneCallback done, JobReport report);
  void PostStatus(StatusCallback done, Status s);
  std::string Where() const;
  std::string NotUsable() const;

  boost::asio::io_context& io_;
  Clock& clock_;
  ByteStreamFactory connect_;
  AgentAdapterOptions options_;
  State state_ = State::kIdle;
  std::unique_ptr<ByteStream> stream_;
  // Bumped whenever a connection starts or ends, so that callbacks of an
  // old stream are recognised and ignored.
  uint64_t generation_ = 0;
  agent::FrameDecoder decoder_;
  agent::Hello hello_;
  StatusCallback connect_done_;
  std::unordered_map<JobId, Job> jobs_;
  // Held jobs (HELLO) still running, and reports of held jobs that came.
  std::set<JobId> held_running_;
  std::map<JobId, JobReport> held_reports_;
  // This master's id of a held job taken over -> the agent's.
  std::unordered_map<JobId, JobId> adopted_as_;
  std::map<uint64_t, Transfer> transfers_;
  uint64_t next_transfer_ = 1;
  ChunkPump pump_;
  std::unique_ptr<Timer> connect_timer_;
  std::unique_ptr<Timer> heartbeat_timer_;
  Seconds last_heard_ = 0;
  uint64_t heartbeat_seq_ = 0;
  std::string lost_reason_;
  // Probes waiting for the ACK of their HEARTBEAT, by its seq.
  struct PendingProbe {
    Seconds sent = 0;
    ProbeCallback done;
  };
  std::map<uint64_t, PendingProbe> probes_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_AGENT_AGENT_ADAPTER_H_
