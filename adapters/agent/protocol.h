// The agent wire protocol (docs/agent-protocol.md): length-prefixed frames
// between the master (AgentAdapter) and one gsrt-agent, over any ByteStream.
// Pure: encoding and decoding only, no I/O.
//
//   frame   = u32 length (little-endian; bytes after this field, >= 1)
//             u8 type, payload
//   payload = fixed-width little-endian integers, f64 as IEEE-754 bits,
//             strings and byte blocks as u32 length + bytes (any byte)
#ifndef GSRT_ADAPTERS_AGENT_PROTOCOL_H_
#define GSRT_ADAPTERS_AGENT_PROTOCOL_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/jobs/job.h"

namespace gs::agent {

// Peers must agree on the major version; the minor one only names what a
// peer may additionally understand. Major 2: a timed-out job's report
// carries where its evidence was kept. 2.1: RUN_JOB ends with the cores
// and memory the job holds (a 2.1 agent reads 2.0 jobs as one core).
// 2.2: the agent's HELLO ends with the jobs it holds from an earlier
// master (a pilot that outlived its master; read as none from 2.1).
// 2.3: SWEEP (a 2.2 agent refuses the frame and ends the connection, so a
// master sends it only to an agent that said 2.3 or later). 2.4:
// GET_REQUEST may end with `tail` (only to an agent that said 2.4). 2.5:
// RUN_JOB may end with the job's environment (its GPUs), sent only to an
// agent that said 2.5. 2.6: HELLO ends with the GPUs the agent hands out
// (a pilot's allocation's; read as none from 2.5), and RUN_JOB with the
// GPUs the job holds after its environment (sent only to an agent that
// said 2.6, whose jobs then get devices of its own).
inline constexpr uint16_t kProtocolMajor = 2;
inline constexpr uint16_t kProtocolMinor = 6;
// First bytes of every HELLO payload: identifies the protocol on the wire.
inline constexpr std::string_view kMagic = "GSRTAGNT";
// Largest `length` accepted. Frames are at most a chunk plus a little, or a
// job spec / report (results are capped at 16 MiB by the local adapter).
inline constexpr uint32_t kMaxFrameBytes = 32u << 20;
// The size of file chunks senders use.
inline constexpr size_t kChunkBytes = 256u << 10;

// Wire values of the message types; never renumber.
enum class MessageType : uint8_t {
  kHello = 1,
  kRunJob = 2,
  kCancel = 3,
  kHeartbeat = 4,
  kHeartbeatAck = 5,
  kJobFinished = 6,
  kPutBegin = 7,
  kPutChunk = 8,
  kPutEnd = 9,
  kPutDone = 10,
  kGetRequest = 11,
  kGetChunk = 12,
  kGetEnd = 13,
  kRemove = 14,
  kError = 15,
  kShutdown = 16,
  kSweep = 17,
};

// Both directions open with HELLO: the master's carries its version only
// (facts zero), the agent's answer describes the host. The first four
// fields (magic, major, minor, software) keep their layout in every
// version, so a peer can always say which versions met.
struct Hello {
  std::string magic = std::string(kMagic);
  uint16_t major = kProtocolMajor;
  uint16_t minor = kProtocolMinor;
  std::string software;  // "gsrt-agent 0.1.0", "gsrt 0.1.0"
  // Host facts (agent -> master).
  std::string host_name;
  std::string work_dir;  // absolute, where staged files and sandboxes go
  uint32_t slots = 0;    // jobs the agent runs at once
  uint32_t cores = 0;
  uint64_t memory_total = 0;      // bytes
  uint64_t memory_available = 0;  // bytes
  double load1 = 0;               // 1-minute load average
  uint32_t pid = 0;
  // Jobs of an earlier master this agent still runs or has the reports of
  // (a pilot that outlived its master, docs/agent-protocol.md); the
  // reports follow the HELLO as JOB_FINISHED frames.
  std::vector<uint64_t> held_jobs;
  // GPUs the agent hands its jobs (2.6): each job that holds k gets k of
  // them in CUDA_VISIBLE_DEVICES; 0: none.
  uint32_t gpus = 0;
};
struct RunJob {
  JobSpec spec;
};
struct Cancel {
  JobId job = 0;
};
struct Heartbeat {
  uint64_t seq = 0;
};
struct HeartbeatAck {
  uint64_t seq = 0;
  uint32_t running = 0;
  double load1 = 0;
};
// Times are the agent's clock; the master translates them.
struct JobFinished {
  JobReport report;
};
// Transfers are named by a master-chosen id, unique per connection.
struct PutBegin {
  uint64_t id = 0;
  std::string path;   // on the host, under the agent's work dir
  uint64_t size = 0;  // expected size
};
struct PutChunk {
  uint64_t id = 0;
  std::string data;
};
struct PutEnd {
  uint64_t id = 0;
  uint64_t size = 0;
  uint64_t hash = 0;  // ContentHash of the whole file
};
struct PutDone {
  uint64_t id = 0;
};
struct GetRequest {
  uint64_t id = 0;
  std::string path;
  // Non-zero: only the file's last `tail` bytes (since 2.4; a failed job's
  // logs, fetched back). 0 is not sent, so older agents read the frame.
  uint64_t tail = 0;
};
struct GetChunk {
  uint64_t id = 0;
  std::string data;
};
struct GetEnd {
  uint64_t id = 0;
  uint64_t size = 0;
  uint64_t hash = 0;
};
struct Remove {
  std::string path;
};
// `request` 0 is about the whole connection: the sender closes it next.
// Otherwise it names a transfer, which ends.
struct Error {
  uint64_t request = 0;
  Status::Code code = Status::Code::kInternal;
  std::string message;
};
struct Shutdown {};
// Clears what earlier agents of this master left in the work dir
// (docs/agent-protocol.md): `owner` names the master's work dir; version
// files in data/ other than `keep` (names, not paths) go, and so do job
// sandboxes no agent runs and partial temporaries.
struct Sweep {
  std::string owner;
  std::vector<std::string> keep;
};

using Message =
    std::variant<Hello, RunJob, Cancel, Heartbeat, HeartbeatAck, JobFinished,
                 PutBegin, PutChunk, PutEnd, PutDone, GetRequest, GetChunk,
                 GetEnd, Remove, Error, Shutdown, Sweep>;

MessageType TypeOf(const Message& message);
const char* TypeName(MessageType type);

// The whole frame of `message`, ready for ByteStream::Write.
std::string Encode(const Message& message);
// Appends the frame to `out` (no temporary for large chunks).
void AppendFrame(const Message& message, std::string* out);

// Ok when `hello` comes from a peer this build can talk to (right magic,
// same major version); otherwise says which versions met and what to do.
// `peer` names the other side ("the agent on host 'x'").
Status CheckHello(const Hello& hello, std::string_view peer);

// A Status with `code` and `message` (for ERROR frames).
Status MakeStatus(Status::Code code, std::string_view message);

// Incremental decoder: bytes arrive in slices split anywhere.
class FrameDecoder {
 public:
  explicit FrameDecoder(uint32_t max_frame_bytes = kMaxFrameBytes)
      : max_frame_(max_frame_bytes) {}

  void Append(std::string_view bytes);

  // The next complete message; nullopt when more bytes are needed. A
  // malformed or oversized frame is an InvalidArgument error, and every
  // later call returns it again (the stream cannot be resynchronised).
  StatusOr<std::optional<Message>> Next();

  // Bytes received and not yet decoded.
  size_t buffered() const { return buffer_.size() - read_; }
  // Bytes decoded so far (for error messages).
  uint64_t consumed() const { return consumed_; }

 private:
  uint32_t max_frame_;
  std::string buffer_;
  size_t read_ = 0;
  uint64_t consumed_ = 0;
  Status error_;
};

// Decodes one frame body (type + payload, without the length field).
StatusOr<Message> DecodeBody(std::string_view body);

// The first bytes of `bytes` as printable text, for messages about a
// stream that is not this protocol (a login banner on an ssh channel).
std::string Printable(std::string_view bytes, size_t limit = 60);

}  // namespace gs::agent

#endif  // GSRT_ADAPTERS_AGENT_PROTOCOL_H_
