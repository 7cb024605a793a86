#include "adapters/ssh/ssh_exec.h"

#include <algorithm>
#include <cstring>

#include "adapters/ssh/ssh_text.h"

namespace gs {
namespace {

// Bytes handed to libssh per write call; libssh cuts them into packets of
// the peer's maximum size. Also bounds what waits unsent inside libssh.
constexpr size_t kWriteChunk = 64 * 1024;

}  // namespace

ExecChannel::ExecChannel(SshSession& session, std::string command_line,
                         std::string shown_as)
    : session_(session),
      command_(std::move(command_line)),
      shown_as_(shown_as.empty() ? command_ : std::move(shown_as)) {
  std::memset(&callbacks_, 0, sizeof(callbacks_));
  callbacks_.userdata = this;
  callbacks_.channel_data_function = &ExecChannel::OnData;
  callbacks_.channel_eof_function = &ExecChannel::OnEof;
  callbacks_.channel_close_function = &ExecChannel::OnClose;
  callbacks_.channel_exit_status_function = &ExecChannel::OnExitStatus;
  callbacks_.channel_exit_signal_function = &ExecChannel::OnExitSignal;
  ssh_callbacks_init(&callbacks_);
}

ExecChannel::~ExecChannel() {
  if (channel_ == nullptr) return;
  ssh_remove_channel_callbacks(channel_, &callbacks_);
  if (!session_.lost() && ssh_channel_is_open(channel_)) {
    // What was written before the close goes first (a last message, such
    // as an agent's REMOVEs and SHUTDOWN), as far as the peer's window
    // takes it without waiting.
    if (state_ == State::kRunning) SendInput();
    ssh_channel_close(channel_);  // queues EOF + CLOSE; no waiting
  }
  ssh_channel_free(channel_);
  session_.Kick();  // flush the close
}

void ExecChannel::Write(std::string_view bytes) {
  if (done() || eof_wanted_) return;
  if (in_off_ > 0 && in_off_ >= in_.size() / 2) {
    in_.erase(0, in_off_);
    in_off_ = 0;
  }
  in_.append(bytes);
}

void ExecChannel::Fail(Status why) {
  if (done()) return;
  failure_ = std::move(why);
  state_ = State::kFailed;
  in_.clear();
  in_off_ = 0;
}

bool ExecChannel::Step(std::string* out, std::string* err, size_t budget) {
  if (done()) return false;
  if (session_.lost()) {
    Fail(session_.lost_status().WithContext("running `" +
                                            ShortCommand(shown_as_) + "`"));
    return false;
  }
  Advance();
  if (state_ != State::kRunning) return false;
  SendInput();
  if (failed()) return false;
  Take(&err_, err, &budget);
  Take(&out_, out, &budget);
  if (!out_.empty() || !err_.empty()) return true;  // budget ran out
  CheckFinished();
  return false;
}

void ExecChannel::Take(std::string* from, std::string* to, size_t* budget) {
  const size_t n = std::min(from->size(), *budget);
  if (n == 0) return;
  if (n == from->size() && to->empty()) {
    to->swap(*from);
  } else {
    to->append(*from, 0, n);
    from->erase(0, n);
  }
  *budget -= n;
}

void ExecChannel::Advance() {
  ssh_session raw = session_.raw();
  if (state_ == State::kOpening) {
    if (channel_ == nullptr) {
      channel_ = ssh_channel_new(raw);
      if (channel_ == nullptr) {
        Fail(Status::Internal("ssh_channel_new failed on " +
                              session_.describe()));
        return;
      }
      ssh_set_channel_callbacks(channel_, &callbacks_);
    }
    int rc = ssh_channel_open_session(channel_);
    if (rc == SSH_AGAIN) return;
    if (rc != SSH_OK) {
      Fail(Status::Unavailable(
          session_.describe() + " would not open an ssh channel for `" +
          ShortCommand(shown_as_) + "`: " + ssh_get_error(raw) +
          " (too many channels? see MaxSessions in the host's sshd_config)"));
      return;
    }
    state_ = State::kRequesting;
  }
  if (state_ == State::kRequesting) {
    int rc = ssh_channel_request_exec(channel_, command_.c_str());
    if (rc == SSH_AGAIN) return;
    if (rc != SSH_OK) {
      Fail(Status::PermissionDenied(session_.describe() + " refused to run `" +
                                    ShortCommand(shown_as_) +
                                    "`: " + ssh_get_error(raw)));
      return;
    }
    state_ = State::kRunning;
  }
}

void ExecChannel::SendInput() {
  ssh_session raw = session_.raw();
  while (pending() > 0) {
    if (remote_closed_ || !ssh_channel_is_open(channel_)) {
      in_.clear();  // the command is gone; its end is reported elsewhere
      in_off_ = 0;
      break;
    }
    // Flow control: no more than the peer's window, and nothing more while
    // libssh still holds output the socket did not take.
    const uint32_t window = ssh_channel_window_size(channel_);
    if (window == 0 || ssh_blocking_flush(raw, 0) == SSH_AGAIN) break;
    const size_t n = std::min<size_t>({pending(), window, kWriteChunk});
    int rc = ssh_channel_write(channel_, in_.data() + in_off_,
                               static_cast<uint32_t>(n));
    if (rc == SSH_ERROR) {
      if (remote_closed_ || !ssh_channel_is_open(channel_)) continue;
      Fail(Status::Unavailable("writing to `" + ShortCommand(shown_as_) +
                               "` on " + session_.describe() + ": " +
                               ssh_get_error(raw)));
      return;
    }
    if (rc == 0) break;  // key re-exchange in progress: later
    in_off_ += static_cast<size_t>(rc);
  }
  if (pending() == 0) {
    in_.clear();
    in_off_ = 0;
    if (eof_wanted_ && !eof_sent_ && ssh_channel_is_open(channel_)) {
      ssh_channel_send_eof(channel_);
      eof_sent_ = true;
    }
  }
}

void ExecChannel::CheckFinished() {
  const bool exited = exit_status_.has_value() || !exit_signal_.empty();
  if ((remote_eof_ && exited) || remote_closed_) state_ = State::kFinished;
}

void ExecChannel::Signal(const char* signal) {
  if (channel_ != nullptr && state_ == State::kRunning &&
      ssh_channel_is_open(channel_)) {
    ssh_channel_request_send_signal(channel_, signal);
    ssh_blocking_flush(session_.raw(), 0);  // a later close must not beat it
    session_.Kick();
  }
}

std::string ExecChannel::DescribeExit() const {
  if (exit_status_) return "exit status " + std::to_string(*exit_status_);
  if (!exit_signal_.empty()) return "signal " + exit_signal_;
  return "no exit status";
}

std::string ExecChannel::DescribeProgress() const {
  switch (state_) {
    case State::kOpening:
      return "the channel was not opened yet";
    case State::kRequesting:
      return "the command was not started yet";
    default:
      break;
  }
  std::string s = "input: " + std::to_string(pending()) + " bytes unsent";
  if (channel_ != nullptr) {
    s += ", peer window " + std::to_string(ssh_channel_window_size(channel_));
  }
  s += eof_sent_ ? ", EOF sent" : "";
  s += remote_eof_ ? "; output ended" : "; output not ended";
  return s + (exit_status_ || !exit_signal_.empty() ? ", exited" : "");
}

int ExecChannel::OnData(ssh_session, ssh_channel, void* data, uint32_t len,
                        int is_stderr, void* self) {
  auto* me = static_cast<ExecChannel*>(self);
  (is_stderr ? me->err_ : me->out_).append(static_cast<const char*>(data), len);
  return static_cast<int>(len);  // all taken: libssh re-opens the window
}

void ExecChannel::OnEof(ssh_session, ssh_channel, void* self) {
  auto* me = static_cast<ExecChannel*>(self);
  me->remote_eof_ = true;
}

void ExecChannel::OnClose(ssh_session, ssh_channel, void* self) {
  auto* me = static_cast<ExecChannel*>(self);
  me->remote_closed_ = true;
}

void ExecChannel::OnExitStatus(ssh_session, ssh_channel, int status,
                               void* self) {
  auto* me = static_cast<ExecChannel*>(self);
  me->exit_status_ = status;
}

void ExecChannel::OnExitSignal(ssh_session, ssh_channel, const char* signal,
                               int, const char*, const char*, void* self) {
  auto* me = static_cast<ExecChannel*>(self);
  me->exit_signal_ = signal ? signal : "?";
}

}  // namespace gs
