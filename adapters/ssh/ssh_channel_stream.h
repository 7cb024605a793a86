// A ByteStream over an ssh exec channel: the stdin/stdout of a command
// (the gsrt agent) running on a remote host, on the engine's io_context.
#ifndef GSRT_ADAPTERS_SSH_SSH_CHANNEL_STREAM_H_
#define GSRT_ADAPTERS_SSH_SSH_CHANNEL_STREAM_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "adapters/ssh/ssh_session.h"
#include "adapters/transport/byte_stream.h"
#include "runtime/base/status.h"

namespace gs {

class ExecChannel;

class SshChannelStream : public ByteStream, private SshSession::Listener {
 public:
  // Prepares to run `argv` (each word quoted for the remote shell) on the
  // session's host. The channel opens once Start() is called; a failure
  // to open or start it arrives through on_closed. InvalidArgument for an
  // argv no shell can carry (empty, NUL bytes). Messages name the command
  // as `shown_as` when that is given (the agent, not the install check that
  // execs it), else by its command line.
  static StatusOr<std::unique_ptr<SshChannelStream>> Open(
      std::shared_ptr<SshSession> session, const std::vector<std::string>& argv,
      std::string shown_as = "");
  ~SshChannelStream() override;

  // on_data gets the command's stdout. on_closed fires once: OK when the
  // command closed its output and exited with status 0; otherwise a
  // Status naming the host and command (exit status or signal, the end of
  // its stderr), or the lost connection.
  void Start(DataCallback on_data, ClosedCallback on_closed) override;
  // Sent as the channel window allows; never blocks.
  void Write(std::string_view bytes) override;
  size_t pending_bytes() const override;
  // Sends EOF and closes the channel; bytes still pending are dropped and
  // on_closed is not called. The remote command sees EOF on its stdin.
  void Close() override;

  // Every chunk the command writes to stderr (e.g. to log it).
  void set_on_stderr(DataCallback cb) { on_stderr_ = std::move(cb); }
  // The last 4 KiB of the command's stderr.
  const std::string& stderr_tail() const { return stderr_tail_; }
  // The command's exit status, once it exited.
  std::optional<int> exit_status() const;

 private:
  SshChannelStream(std::shared_ptr<SshSession> session, std::string line,
                   std::string shown_as);
  bool OnSessionReady() override;
  void OnSessionLost(const Status& why) override;
  void Finish(Status why);
  Status EndStatus() const;

  std::shared_ptr<SshSession> session_;  // outlives exec_
  std::unique_ptr<ExecChannel> exec_;
  DataCallback on_data_;
  DataCallback on_stderr_;
  ClosedCallback on_closed_;
  bool started_ = false;
  bool closed_ = false;
  std::string stderr_tail_;
  std::optional<int> exit_status_;
  // False once destroyed: callbacks may delete the stream.
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_SSH_SSH_CHANNEL_STREAM_H_
