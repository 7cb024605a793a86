// TCP as a transport of the agent protocol: a pilot job's gsrt-agent
// connects back to the master. The connected socket becomes a ByteStream
// through PipeStream's descriptor I/O (Asio stream_descriptor, send with
// MSG_NOSIGNAL), so TCP, pipes and socket pairs share one tested writer.
#ifndef GSRT_ADAPTERS_TRANSPORT_TCP_STREAM_H_
#define GSRT_ADAPTERS_TRANSPORT_TCP_STREAM_H_

#include <memory>
#include <string>
#include <string_view>

#include "adapters/transport/pipe_stream.h"
#include "runtime/base/clock.h"
#include "runtime/base/status.h"

namespace gs {

struct HostPort {
  std::string host;
  int port = 0;
};

// "HOST:PORT", "[V6ADDR]:PORT" or, when `default_port` >= 0, "HOST" alone.
// InvalidArgument saying what was expected.
StatusOr<HostPort> ParseHostPort(std::string_view text, int default_port = -1);

// Connects to `host`:`port` (a name or address), trying each address it
// resolves to, each attempt bounded by `timeout` seconds. Blocking: for
// the agent's start. The socket is close-on-exec with TCP_NODELAY set.
StatusOr<int> ConnectTcp(const std::string& host, int port, Seconds timeout);

// Writes all of `bytes` to the blocking socket `fd` (the pilot's greeting).
Status WriteAll(int fd, std::string_view bytes);

// A ByteStream over the connected TCP socket `fd`, which it takes over.
// `peer` names the other side in messages ("pilot 'n1-3'").
StatusOr<std::unique_ptr<PipeStream>> AdoptTcpSocket(
    boost::asio::io_context& io, int fd, std::string peer);

}  // namespace gs

#endif  // GSRT_ADAPTERS_TRANSPORT_TCP_STREAM_H_
