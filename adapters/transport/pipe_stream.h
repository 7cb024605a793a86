// A ByteStream over local descriptors: either the stdin/stdout of a child
// process this object starts (the master's end of a "local agent"), or
// descriptors a process already holds (the agent's own stdin/stdout).
//
// The child is started with SpawnProcess (runtime/base/process_spawn.h:
// argv as given, looked up in PATH, never a shell); its stdin and stdout
// are one end of a Unix socket pair, so writes use send(MSG_NOSIGNAL) and
// a dead child never raises SIGPIPE in the master. Its stderr is
// inherited. Reads and write readiness are watched with
// boost::asio::posix::stream_descriptor on the caller's io_context.
#ifndef GSRT_ADAPTERS_TRANSPORT_PIPE_STREAM_H_
#define GSRT_ADAPTERS_TRANSPORT_PIPE_STREAM_H_

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "adapters/transport/byte_stream.h"
#include "runtime/base/clock.h"
#include "runtime/base/status.h"

namespace boost::asio {
class io_context;
}  // namespace boost::asio

namespace gs {

class PipeStream : public ByteStream {
 public:
  // Starts `argv` (argv[0]: a path, or a name looked up in PATH). When the
  // stream ends or is closed, the child gets `exit_grace` seconds to exit
  // before SIGKILL; that wait blocks (it is short: an agent exits as soon
  // as its stdin closes).
  static StatusOr<std::unique_ptr<PipeStream>> Spawn(
      boost::asio::io_context& io, const std::vector<std::string>& argv,
      Seconds exit_grace = 2);

  // A stream over `read_fd` and `write_fd` (pipes or sockets; a regular
  // file as input is read to its end), which it takes over and closes. End
  // of input is an orderly close (Status OK). `peer` names the other side
  // in messages ("the master").
  static StatusOr<std::unique_ptr<PipeStream>> Adopt(
      boost::asio::io_context& io, int read_fd, int write_fd,
      std::string peer = "");

  // As Close().
  ~PipeStream() override;

  PipeStream(const PipeStream&) = delete;
  PipeStream& operator=(const PipeStream&) = delete;

  // `on_closed` gets OK when the other side closed in order (a child that
  // exited 0), otherwise Unavailable naming the exit code or signal.
  void Start(DataCallback on_data, ClosedCallback on_closed) override;
  void Write(std::string_view bytes) override;
  size_t pending_bytes() const override;
  // Stops reading, tries once more to write what is queued without
  // blocking, closes the descriptors and (Spawn) waits for the child as
  // described above. Callbacks never run after Close().
  void Close() override;

  // Writes everything queued, blocking up to `limit` seconds: a program's
  // last words before it exits. TimedOut when the peer did not take it.
  Status Flush(Seconds limit);

  // The child's pid (Spawn), -1 otherwise.
  pid_t pid() const;

 private:
  struct State;
  explicit PipeStream(std::shared_ptr<State> state);
  std::shared_ptr<State> state_;
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_TRANSPORT_PIPE_STREAM_H_
