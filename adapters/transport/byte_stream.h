// An ordered, reliable byte stream between the master and one agent: the
// stdin/stdout of a local child process, an ssh exec channel, or a TCP
// connection a pilot job made back to the master. The agent protocol
// (adapters/agent/) runs over any of them.
//
// Everything happens on the engine's io_context thread.
#ifndef GSRT_ADAPTERS_TRANSPORT_BYTE_STREAM_H_
#define GSRT_ADAPTERS_TRANSPORT_BYTE_STREAM_H_

#include <functional>
#include <string_view>

#include "runtime/base/status.h"

namespace gs {

class ByteStream {
 public:
  using DataCallback = std::function<void(std::string_view bytes)>;
  // Called once when the stream ends: OK for an orderly close by the other
  // side, otherwise why it broke (connection lost, process died).
  using ClosedCallback = std::function<void(Status why)>;

  virtual ~ByteStream() = default;

  // Starts delivering received bytes. Called once, before any Write.
  virtual void Start(DataCallback on_data, ClosedCallback on_closed) = 0;

  // Queues `bytes` for sending; never blocks. Bytes written after the
  // stream closed are dropped.
  virtual void Write(std::string_view bytes) = 0;

  // Bytes queued but not yet handed to the transport (for flow control).
  virtual size_t pending_bytes() const = 0;

  // Closes the stream; `on_closed` is not called for a Close() from here.
  virtual void Close() = 0;
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_TRANSPORT_BYTE_STREAM_H_
