// Sends files over a ByteStream as chunk frames with flow control: a chunk
// is queued only while the stream holds less than `high_water` unsent
// bytes, so a 1 GB file never sits in memory and other frames (job
// reports, heartbeats) wait behind at most `high_water` bytes. When the
// stream is full the pump looks again every `poll` seconds (ByteStream
// has no "drained" callback). Several files are interleaved chunk by
// chunk. Used by the master for PUT and by the agent for GET.
#ifndef GSRT_ADAPTERS_AGENT_CHUNK_PUMP_H_
#define GSRT_ADAPTERS_AGENT_CHUNK_PUMP_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>

#include "adapters/agent/protocol.h"
#include "adapters/transport/byte_stream.h"
#include "runtime/base/clock.h"
#include "runtime/base/hashing.h"

namespace gs {

struct ChunkPumpOptions {
  size_t chunk_bytes = agent::kChunkBytes;
  size_t high_water = 4 * agent::kChunkBytes;
  Seconds poll = 0.002;
};

class ChunkPump {
 public:
  // Called once: OK when the end frame was queued; the read error when
  // reading failed (an ERROR frame for the transfer was queued instead).
  using DoneCallback = std::function<void(Status)>;

  ChunkPump(Clock& clock, ChunkPumpOptions options = {});
  ~ChunkPump();

  // The stream chunks go to (nullptr: none; Clear() first).
  void set_stream(ByteStream* stream) { stream_ = stream; }

  // Sends file descriptor `fd` (taken over, read to its end) as
  // `chunk_type` frames for transfer `id`, then an `end_type` frame with
  // the size and ContentHash. `done` may run inside Add().
  void Add(uint64_t id, int fd, agent::MessageType chunk_type,
           agent::MessageType end_type, DoneCallback done);

  // Stops sending transfer `id`; its `done` does not run.
  void Cancel(uint64_t id);
  // Cancels every transfer.
  void Clear();

  size_t active() const { return sources_.size(); }

 private:
  struct Source {
    uint64_t id = 0;
    int fd = -1;
    agent::MessageType chunk_type;
    agent::MessageType end_type;
    ContentHash hash;
    DoneCallback done;
  };
  void Pump();
  // Sends one chunk or the end of `src`; false when `src` is finished.
  bool Step(Source& src);

  Clock& clock_;
  ChunkPumpOptions options_;
  ByteStream* stream_ = nullptr;
  std::deque<std::unique_ptr<Source>> sources_;
  std::unique_ptr<Timer> poll_timer_;
  std::string buffer_;
  bool pumping_ = false;
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_AGENT_CHUNK_PUMP_H_
