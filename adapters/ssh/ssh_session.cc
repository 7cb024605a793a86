#include "adapters/ssh/ssh_session.h"

#include <libssh/libssh.h>
#include <libssh/server.h>  // ssh_send_keepalive, usable by clients too
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/asio/post.hpp>
#include <cassert>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>

#include "adapters/ssh/ssh_connect.h"

namespace gs {
namespace {

// Rounds of "process input, run listeners" per readiness event before the
// session yields to other work on the io_context.
constexpr int kMaxRounds = 16;

}  // namespace

StatusOr<std::shared_ptr<SshSession>> SshSession::Connect(
    boost::asio::io_context& io, Clock& clock, const SshTarget& target) {
  StatusOr<ssh_session> raw = OpenSshConnection(target);
  if (!raw.ok()) return raw.status();
  std::shared_ptr<SshSession> session(new SshSession(io, clock, target, *raw));
  if (Status st = session->Start(); !st.ok()) return st;
  return session;
}

SshSession::SshSession(boost::asio::io_context& io, Clock& clock,
                       SshTarget target, ssh_session raw)
    : io_(io),
      clock_(clock),
      target_(std::move(target)),
      describe_(target_.Describe()),
      raw_(raw),
      socket_(io) {}

SshSession::~SshSession() {
  assert(listeners_.empty() && "channels outlived their session");
  keepalive_.reset();
  boost::system::error_code ignored;
  socket_.close(ignored);  // our dup only; libssh closes its own fd
  if (event_ != nullptr) {
    ssh_event_remove_session(event_, raw_);
    ssh_event_free(event_);
  }
  if (!lost_ && ssh_is_connected(raw_)) {
    // What the channels queued last (their close, a signal) would be
    // dropped with the socket: give it up to a second to go out.
    ssh_blocking_flush(raw_, 1000);
    ssh_disconnect(raw_);
  }
  ssh_free(raw_);
}

Status SshSession::Start() {
  ssh_set_blocking(raw_, 0);
  counters_ = std::make_unique<ssh_counter_struct>();
  ssh_set_counters(raw_, counters_.get(), nullptr);
  // ssh_event_dopoll is libssh's public way to process a session's input
  // when no channel is being read (keepalive replies, a closed socket).
  event_ = ssh_event_new();
  if (event_ == nullptr || ssh_event_add_session(event_, raw_) != SSH_OK) {
    return Status::Internal(describe_ + ": cannot set up the ssh event loop");
  }
  const int fd = ::dup(ssh_get_fd(raw_));
  if (fd < 0) return Status::FromErrno("dup of the ssh socket", errno);
  // A dead peer must surface even while both sides are idle.
  int on = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof(on));
  boost::system::error_code ec;
  socket_.assign(fd, ec);
  if (ec) {
    ::close(fd);
    return Status::Internal(describe_ +
                            ": cannot watch the ssh socket: " + ec.message());
  }
  last_heard_ = clock_.Now();
  Arm(false);
  ScheduleKeepalive();
  return Status::Ok();
}

void SshSession::AddListener(Listener* listener) {
  listeners_.push_back({listener, false});
  Kick();  // it may have work already, or the session may be lost
}

void SshSession::RemoveListener(Listener* listener) {
  for (auto& e : listeners_) {
    if (e.listener == listener) e.listener = nullptr;
  }
  if (iterating_ == 0) {
    std::erase_if(listeners_, [](const Entry& e) { return !e.listener; });
  }
}

void SshSession::Kick() {
  if (kick_posted_) return;
  kick_posted_ = true;
  boost::asio::post(io_, [weak = weak_from_this()] {
    if (auto self = weak.lock()) {
      self->kick_posted_ = false;
      self->Pump();
    }
  });
}

void SshSession::Pump() {
  if (lost_) {
    NotifyLost();
    return;
  }
  bool again = false;
  bool output_blocked = false;
  for (int round = 0; round < kMaxRounds; ++round) {
    ssh_event_dopoll(event_, 0);  // reads what arrived, writes queued output
    const uint64_t mark = InputMark();
    bool more = false;
    ++iterating_;
    for (size_t i = 0; i < listeners_.size(); ++i) {
      Listener* l = listeners_[i].listener;
      if (l != nullptr) more = l->OnSessionReady() || more;
      if (lost_) break;
    }
    --iterating_;
    if (iterating_ == 0) {
      std::erase_if(listeners_, [](const Entry& e) { return !e.listener; });
    }
    if (!CheckConnection()) return;
    // libssh queues output until a poll says the socket takes it.
    const bool queued = (ssh_get_poll_flags(raw_) & SSH_WRITE_PENDING) != 0;
    const bool writable = queued && SocketReady(POLLOUT);
    output_blocked = queued && !writable;
    again = more || InputMark() != mark || writable || SocketReady(POLLIN);
    if (!again) break;
  }
  if (again) Kick();  // yield to other work, then go on
  Arm(output_blocked);
}

bool SshSession::CheckConnection() {
  if (lost_) {
    NotifyLost();
    return false;
  }
  if (Connected()) return true;
  MarkLost(LostStatus());
  return false;
}

bool SshSession::Connected() const {
  return ssh_is_connected(raw_) &&
         (ssh_get_status(raw_) & (SSH_CLOSED | SSH_CLOSED_ERROR)) == 0;
}

Status SshSession::LostStatus() const {
  return Status::Unavailable("the ssh connection to " + describe_ +
                             " was lost: " + ssh_get_error(raw_));
}

void SshSession::MarkLost(Status why) {
  if (!lost_) {
    lost_ = true;
    lost_status_ = std::move(why);
    keepalive_.reset();
    boost::system::error_code ignored;
    socket_.cancel(ignored);
  }
  NotifyLost();
}

void SshSession::NotifyLost() {
  auto self = shared_from_this();  // a listener may drop the last owner
  ++iterating_;
  for (size_t i = 0; i < listeners_.size(); ++i) {
    if (listeners_[i].listener == nullptr || listeners_[i].told_lost) continue;
    listeners_[i].told_lost = true;
    listeners_[i].listener->OnSessionLost(lost_status_);
  }
  --iterating_;
  if (iterating_ == 0) {
    std::erase_if(listeners_, [](const Entry& e) { return !e.listener; });
  }
}

uint64_t SshSession::InputMark() const {
  return counters_ ? counters_->in_bytes : 0;
}

bool SshSession::SocketReady(short events) const {
  pollfd p{const_cast<boost::asio::posix::stream_descriptor&>(socket_)
               .native_handle(),
           events, 0};
  return ::poll(&p, 1, 0) > 0 &&
         (p.revents & (events | POLLHUP | POLLERR)) != 0;
}

void SshSession::Arm(bool output_blocked) {
  if (lost_ || !socket_.is_open()) return;
  // The reactor is edge-triggered: Pump drained the socket before this, so
  // the next arrival raises a new edge.
  if (!read_armed_) {
    read_armed_ = true;
    socket_.async_wait(
        boost::asio::posix::stream_descriptor::wait_read,
        [weak = weak_from_this()](const boost::system::error_code& ec) {
          auto self = weak.lock();
          if (!self) return;
          self->read_armed_ = false;
          if (ec) return;  // cancelled
          self->last_heard_ = self->clock_.Now();
          self->heard_ = true;
          self->Pump();
        });
  }
  // Only when the socket refused output: it signals again once the peer
  // has taken some of it.
  if (output_blocked && !write_armed_) {
    write_armed_ = true;
    socket_.async_wait(
        boost::asio::posix::stream_descriptor::wait_write,
        [weak = weak_from_this()](const boost::system::error_code& ec) {
          auto self = weak.lock();
          if (!self) return;
          self->write_armed_ = false;
          if (!ec) self->Pump();
        });
  }
}

void SshSession::WaitSocket(int timeout_ms, uint64_t mark) {
  if (InputMark() != mark) return;  // libssh read something: look first
  timeout_ms = std::max(timeout_ms, 0);
  if (serve_io_ && !io_.get_executor().running_in_this_thread() &&
      ServeIoWhileWaiting(timeout_ms)) {
    return;
  }
  // Inside a handler, told not to serve, or nothing on the io_context could
  // wake us: block in libssh's own poll (input, and room for queued
  // output); the io_context's other work waits.
  ssh_event_dopoll(event_, timeout_ms);
  if (InputMark() != mark) {
    last_heard_ = clock_.Now();
    heard_ = true;
  }
  if (!lost_ && !Connected()) {
    // Listeners are told from the io_context (Pump), not from inside the
    // synchronous caller, which may be in the middle of one of them.
    lost_ = true;
    lost_status_ = LostStatus();
    keepalive_.reset();
    boost::system::error_code ignored;
    socket_.cancel(ignored);
    Kick();
  }
}

bool SshSession::ServeIoWhileWaiting(int timeout_ms) {
  if (lost_) return false;
  const bool queued = (ssh_get_poll_flags(raw_) & SSH_WRITE_PENDING) != 0;
  if (queued && SocketReady(POLLOUT)) {
    ssh_event_dopoll(event_, 0);  // the socket takes it now
    return true;
  }
  // This session's own waits bring what arrives (Pump); the rest of the
  // io_context's work runs meanwhile: other hosts' agents, their timers.
  Arm(queued);
  if (io_.stopped()) io_.restart();
  return io_.run_one_for(std::chrono::milliseconds(timeout_ms)) > 0 ||
         !io_.stopped();
}

void SshSession::ScheduleKeepalive() {
  if (!(target_.keepalive_interval > 0) || lost_) return;
  keepalive_ =
      clock_.After(target_.keepalive_interval, [weak = weak_from_this()] {
        if (auto self = weak.lock()) self->OnKeepalive();
      });
}

void SshSession::OnKeepalive() {
  if (lost_) return;
  // As OpenSSH's ServerAliveCountMax: the host is given up after this
  // many intervals in a row, each starting with a keepalive request, in
  // which nothing at all came back.
  if (heard_) {
    missed_ = 0;
  } else if (++missed_ >= std::max(target_.keepalive_count_max, 1)) {
    const Seconds silent = clock_.Now() - last_heard_;
    MarkLost(Status::Unavailable(
        describe_ + " sent nothing for " +
        std::to_string(static_cast<long>(std::lround(silent))) + " s (" +
        std::to_string(missed_) +
        " keepalives unanswered): the host hangs or the network is cut"));
    return;
  }
  heard_ = false;
  // One request may still await its reply: the first call collects that
  // reply (or finds it missing), the second sends a new request if none is
  // outstanding. Either way exactly one is in flight afterwards.
  ssh_send_keepalive(raw_);
  ssh_send_keepalive(raw_);
  Kick();
  ScheduleKeepalive();
}

}  // namespace gs
