// One exec channel on an SshSession, advanced without blocking: the shared
// core of SshChannelStream (long-lived, e.g. the agent) and of the short
// remote commands of ssh_remote.h. Internal to adapters/ssh.
// libssh's callbacks put received data, EOF, close and exit status in this
// object's buffers whichever libssh call processed the packets, so nothing
// stays stranded inside libssh (docs/ssh.md, "Threading and blocking").
// The owner calls Step() whenever the session has news; Step never calls
// back into the owner: it appends what arrived to the strings it is given,
// so the owner decides when to run user callbacks. Received data is taken
// out of libssh as it arrives (the channel window is re-opened at once),
// so the owner must keep up with what it gets.
#ifndef GSRT_ADAPTERS_SSH_SSH_EXEC_H_
#define GSRT_ADAPTERS_SSH_SSH_EXEC_H_

#include <libssh/callbacks.h>
#include <libssh/libssh.h>

#include <optional>
#include <string>
#include <string_view>

#include "adapters/ssh/ssh_session.h"
#include "runtime/base/status.h"

namespace gs {

class ExecChannel {
 public:
  // `command_line` is run by the remote login shell (see shell_quote.h).
  // Messages name it as `shown_as` when that is given (a wrapper's inner
  // command), else by the command line.
  ExecChannel(SshSession& session, std::string command_line,
              std::string shown_as = "");
  // Closes the channel if it is open (the remote command sees EOF on its
  // stdin; sshd does not kill it).
  ~ExecChannel();
  ExecChannel(const ExecChannel&) = delete;
  ExecChannel& operator=(const ExecChannel&) = delete;

  // Opens the channel, starts the command, sends queued input as far as
  // the channel window and the socket allow, and appends received
  // stdout/stderr to `out` and `err` (up to `budget` bytes in all). True if
  // more is ready without new socket input (the budget ran out).
  bool Step(std::string* out, std::string* err, size_t budget = 1 << 20);

  // Queues input for the command's stdin.
  void Write(std::string_view bytes);
  // Input queued and not yet handed to libssh.
  size_t pending() const { return in_.size() - in_off_; }
  // Sends EOF on the command's stdin once the queued input is out.
  void CloseStdin() { eof_wanted_ = true; }
  // Best effort: asks sshd to send `signal` ("TERM", "KILL") to the
  // command's process group. OpenSSH (7.9+) refuses it for root logins,
  // which run without post-authentication privilege separation.
  void Signal(const char* signal);

  // Failed: the channel could not be opened or the connection broke.
  bool failed() const { return !failure_.ok(); }
  const Status& failure() const { return failure_; }
  void Fail(Status why);
  // Finished: the command closed its output and exited (or the channel was
  // closed). Output may still be pending in `out` of the last Step.
  bool finished() const { return state_ == State::kFinished; }
  bool done() const { return failed() || finished(); }
  bool started() const { return state_ >= State::kRunning; }

  // Set when the command exited normally / was killed by a signal.
  std::optional<int> exit_status() const { return exit_status_; }
  const std::string& exit_signal() const { return exit_signal_; }
  const std::string& command_line() const { return command_; }
  // The command as messages name it.
  const std::string& shown_as() const { return shown_as_; }
  // "exit status 3", "signal KILL", "no exit status".
  std::string DescribeExit() const;
  // Where the command stands, for a timeout message: "input: 17 bytes
  // unsent, peer window 0; output: EOF not seen".
  std::string DescribeProgress() const;

 private:
  enum class State { kOpening, kRequesting, kRunning, kFinished, kFailed };

  void Advance();
  void SendInput();
  void Take(std::string* from, std::string* to, size_t* budget);
  void CheckFinished();
  static int OnData(ssh_session, ssh_channel, void* data, uint32_t len,
                    int is_stderr, void* self);
  static void OnEof(ssh_session, ssh_channel, void* self);
  static void OnClose(ssh_session, ssh_channel, void* self);
  static void OnExitStatus(ssh_session, ssh_channel, int status, void* self);
  static void OnExitSignal(ssh_session, ssh_channel, const char* signal,
                           int core, const char* errmsg, const char* lang,
                           void* self);

  SshSession& session_;
  const std::string command_;
  const std::string shown_as_;
  ssh_channel channel_ = nullptr;
  ssh_channel_callbacks_struct callbacks_;
  State state_ = State::kOpening;
  Status failure_;
  std::string in_;
  size_t in_off_ = 0;
  bool eof_wanted_ = false;
  bool eof_sent_ = false;
  std::string out_;  // received, not yet taken by Step
  std::string err_;
  bool remote_eof_ = false;
  bool remote_closed_ = false;
  std::optional<int> exit_status_;
  std::string exit_signal_;
};

}  // namespace gs

#endif  // GSRT_ADAPTERS_SSH_SSH_EXEC_H_
