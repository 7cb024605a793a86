#include "adapters/ssh/ssh_channel_stream.h"

#include "adapters/host_environment.h"
#include "adapters/ssh/ssh_exec.h"
#include "runtime/base/shell_quote.h"

namespace gs {
namespace {

constexpr size_t kStderrTail = 4096;

}  // namespace

StatusOr<std::unique_ptr<SshChannelStream>> SshChannelStream::Open(
    std::shared_ptr<SshSession> session, const std::vector<std::string>& argv,
    std::string shown_as) {
  StatusOr<std::string> line = ShellCommandLine(argv);
  if (!line.ok()) return line.status();
  return std::unique_ptr<SshChannelStream>(new SshChannelStream(
      std::move(session), std::move(*line), std::move(shown_as)));
}

SshChannelStream::SshChannelStream(std::shared_ptr<SshSession> session,
                                   std::string line, std::string shown_as)
    : session_(std::move(session)),
      exec_(std::make_unique<ExecChannel>(*session_, std::move(line),
                                          std::move(shown_as))) {}

SshChannelStream::~SshChannelStream() {
  *alive_ = false;
  if (started_ && !closed_) session_->RemoveListener(this);
}

void SshChannelStream::Start(DataCallback on_data, ClosedCallback on_closed) {
  if (started_) return;
  started_ = true;
  on_data_ = std::move(on_data);
  on_closed_ = std::move(on_closed);
  session_->AddListener(this);
}

void SshChannelStream::Write(std::string_view bytes) {
  if (closed_ || bytes.empty()) return;
  exec_->Write(bytes);
  session_->Kick();
}

size_t SshChannelStream::pending_bytes() const {
  return closed_ ? 0 : exec_->pending();
}

void SshChannelStream::Close() {
  if (closed_) return;
  closed_ = true;
  if (started_) session_->RemoveListener(this);
  exit_status_ = exec_->exit_status();
  exec_.reset();  // sends EOF and CLOSE
}

std::optional<int> SshChannelStream::exit_status() const {
  return exec_ ? exec_->exit_status() : exit_status_;
}

bool SshChannelStream::OnSessionReady() {
  if (closed_) return false;
  std::string out, err;
  const bool more = exec_->Step(&out, &err);
  const std::shared_ptr<bool> alive = alive_;
  if (!err.empty()) {
    stderr_tail_ += err;
    if (stderr_tail_.size() > kStderrTail) {
      stderr_tail_.erase(0, stderr_tail_.size() - kStderrTail);
    }
    if (on_stderr_) on_stderr_(err);
    if (!*alive || closed_) return false;
  }
  if (!out.empty() && on_data_) {
    on_data_(out);
    if (!*alive || closed_) return false;
  }
  if (exec_->failed()) {
    Finish(exec_->failure());
    return false;
  }
  if (exec_->finished()) {
    Finish(EndStatus());
    return false;
  }
  return more;
}

void SshChannelStream::OnSessionLost(const Status& why) {
  if (closed_) return;
  Finish(why.WithContext("`" + exec_->shown_as() + "`"));
}

Status SshChannelStream::EndStatus() const {
  if (exec_->exit_status() == 0) return Status::Ok();
  if (exec_->exit_status() && IsSetupFailure(*exec_->exit_status())) {
    // The host's setup or launcher (host_environment.h), not the command.
    return Status::FailedPrecondition(DescribeSetupFailure(
        "`" + exec_->shown_as() + "` on " + session_->describe(),
        *exec_->exit_status(), stderr_tail_));
  }
  std::string msg = "`" + exec_->shown_as() + "` on " + session_->describe() +
                    " ended with " + exec_->DescribeExit();
  std::string tail = stderr_tail_;
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == '\r')) {
    tail.pop_back();
  }
  if (!tail.empty()) msg += "; its stderr ends: " + tail;
  return Status::Unavailable(msg);
}

void SshChannelStream::Finish(Status why) {
  if (closed_) return;
  closed_ = true;
  session_->RemoveListener(this);
  exit_status_ = exec_->exit_status();
  ClosedCallback cb = std::move(on_closed_);
  if (cb) cb(std::move(why));  // last: it may delete this stream
}

}  // namespace gs
