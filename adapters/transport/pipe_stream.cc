#include "adapters/transport/pipe_stream.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/post.hpp>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <deque>
#include <utility>

#include "runtime/base/process_spawn.h"

namespace gs {

namespace {

using Descriptor = boost::asio::posix::stream_descriptor;

std::string WaitStatusText(int status) {
  if (WIFEXITED(status)) {
    return "exited with code " + std::to_string(WEXITSTATUS(status));
  }
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    std::string text = "was killed by signal " + std::to_string(sig);
    if (const char* abbrev = sigabbrev_np(sig)) {
      text += std::string(" (SIG") + abbrev + ")";
    }
    return text;
  }
  return "ended with wait status " + std::to_string(status);
}

// Milliseconds left until `deadline`, for poll().
int MillisLeft(std::chrono::steady_clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - std::chrono::steady_clock::now());
  return left.count() > 0 ? static_cast<int>(left.count()) : 0;
}

std::chrono::steady_clock::time_point DeadlineIn(Seconds s) {
  return std::chrono::steady_clock::now() +
         std::chrono::microseconds(static_cast<int64_t>(s * 1e6));
}

}  // namespace

// Everything the asynchronous handlers touch; they hold it by shared_ptr,
// so a PipeStream destroyed inside its own callback leaves them safe.
struct PipeStream::State {
  explicit State(boost::asio::io_context& io)
      : io(io), reader(io), writer(io) {}

  boost::asio::io_context& io;
  Descriptor reader;
  Descriptor writer;
  bool write_is_socket = false;
  DataCallback on_data;
  ClosedCallback on_closed;
  bool closed = false;         // no callback runs any more
  bool write_waiting = false;  // an async_wait for writability is armed
  bool write_broken = false;
  std::deque<std::string> queue;
  size_t queue_front_offset = 0;
  size_t pending = 0;
  std::array<char, 64 * 1024> buffer;
  // The child (Spawn only).
  std::string name;
  pid_t pid = -1;
  int pidfd = -1;
  bool reaped = false;
  int wait_status = 0;
  bool status_known = false;
  Seconds exit_grace = 2;

  void StartRead(const std::shared_ptr<State>& self);
  void OnRead(const boost::system::error_code& ec, size_t n);
  // Writes without blocking; arms a wait when the peer is full.
  void TryWrite(const std::shared_ptr<State>& self, bool arm);
  // Writes once; false on EAGAIN; sets write_broken on errors.
  bool WriteSome();
  void End(Status why);
  void CloseDescriptors();
  // Waits (bounded) for the child; SIGKILL when it outlives the grace.
  void Reap();
};

void PipeStream::State::StartRead(const std::shared_ptr<State>& self) {
  reader.async_read_some(boost::asio::buffer(buffer),
                         [self](const boost::system::error_code& ec, size_t n) {
                           if (self->closed) return;
                           self->OnRead(ec, n);
                           if (!self->closed) self->StartRead(self);
                         });
}

void PipeStream::State::OnRead(const boost::system::error_code& ec, size_t n) {
  if (ec) {
    if (ec == boost::asio::error::eof) return End(Status::Ok());
    return End(
        Status::Unavailable("reading from " + name + ": " + ec.message()));
  }
  on_data(std::string_view(buffer.data(), n));
}

bool PipeStream::State::WriteSome() {
  std::array<iovec, 16> iov;
  size_t count = 0;
  size_t offset = queue_front_offset;
  for (auto it = queue.begin(); it != queue.end() && count < iov.size(); ++it) {
    iov[count].iov_base = it->data() + offset;
    iov[count].iov_len = it->size() - offset;
    offset = 0;
    ++count;
  }
  ssize_t n;
  do {
    if (write_is_socket) {
      msghdr msg{};
      msg.msg_iov = iov.data();
      msg.msg_iovlen = count;
      n = ::sendmsg(writer.native_handle(), &msg, MSG_NOSIGNAL);
    } else {
      n = ::writev(writer.native_handle(), iov.data(), static_cast<int>(count));
    }
  } while (n < 0 && errno == EINTR);
  if (n < 0) {
    if (errno == EAGAIN || errno == EWOULDBLOCK) return false;
    // The peer is gone; the reader sees the end and reports it.
    write_broken = true;
    queue.clear();
    pending = 0;
    return false;
  }
  size_t left = static_cast<size_t>(n);
  pending -= left;
  while (left > 0) {
    const size_t front = queue.front().size() - queue_front_offset;
    if (left < front) {
      queue_front_offset += left;
      break;
    }
    left -= front;
    queue.pop_front();
    queue_front_offset = 0;
  }
  return true;
}

void PipeStream::State::TryWrite(const std::shared_ptr<State>& self, bool arm) {
  while (!queue.empty() && !write_broken) {
    if (!WriteSome()) break;
  }
  if (write_broken && !closed) {
    // Report through the reader's path, outside the caller's Write().
    boost::asio::post(io, [self] {
      if (!self->closed) {
        self->End(Status::Unavailable("writing to " + self->name +
                                      " failed: the other side is gone"));
      }
    });
    return;
  }
  if (queue.empty() || !arm || write_waiting) return;
  write_waiting = true;
  writer.async_wait(Descriptor::wait_write,
                    [self](const boost::system::error_code& ec) {
                      self->write_waiting = false;
                      if (self->closed || ec) return;
                      self->TryWrite(self, true);
                    });
}

void PipeStream::State::Reap() {
  if (pid <= 0 || reaped) return;
  // A stopped agent cannot see its input close; let it run to exit.
  ::kill(pid, SIGCONT);
  const auto deadline = DeadlineIn(exit_grace);
  pollfd p{pidfd, POLLIN, 0};
  int r;
  do {
    r = ::poll(&p, 1, MillisLeft(deadline));
  } while (r < 0 && errno == EINTR);
  if (r <= 0) ::kill(pid, SIGKILL);
  pid_t got;
  do {
    got = ::waitpid(pid, &wait_status, 0);
  } while (got < 0 && errno == EINTR);
  // ECHILD: something else in the program reaped it (SIGCHLD ignored, or a
  // waitpid(-1) loop).
  status_known = got == pid;
  reaped = true;
  ::close(pidfd);
  pidfd = -1;
}

void PipeStream::State::CloseDescriptors() {
  boost::system::error_code ignored;
  reader.close(ignored);
  writer.close(ignored);
  queue.clear();
  pending = 0;
}

void PipeStream::State::End(Status why) {
  closed = true;
  CloseDescriptors();
  if (pid > 0) {
    Reap();
    const std::string who = name + " (pid " + std::to_string(pid) + ") ";
    if (!status_known) {
      why = Status::Unavailable(who +
                                "ended; its exit status was taken by "
                                "another part of this program");
    } else if (WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 0) {
      why = Status::Ok();
    } else {
      why = Status::Unavailable(who + WaitStatusText(wait_status));
    }
  }
  ClosedCallback done = std::move(on_closed);
  on_data = nullptr;
  if (done) done(std::move(why));
}

PipeStream::PipeStream(std::shared_ptr<State> state)
    : state_(std::move(state)) {}

PipeStream::~PipeStream() { Close(); }

StatusOr<std::unique_ptr<PipeStream>> PipeStream::Spawn(
    boost::asio::io_context& io, const std::vector<std::string>& argv,
    Seconds exit_grace) {
  if (argv.empty() || argv[0].empty()) {
    return Status::InvalidArgument("no program to start");
  }
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
    return Status::FromErrno("socketpair for '" + argv[0] + "'", errno);
  }
  // The child's stdin and stdout are the socket; its stderr is ours, and
  // it stays in our process group (a Ctrl-C stops it with the master).
  SpawnRequest req;
  req.argv = &argv;
  req.search_path = true;
  req.in.fd = sv[1];
  req.out.fd = sv[1];
  req.own_process_group = false;
  StatusOr<SpawnedProcess> child = SpawnProcess(req);
  ::close(sv[1]);
  if (!child.ok()) {
    ::close(sv[0]);
    return child.status();
  }
  const pid_t pid = child->pid;
  const int pidfd = child->pidfd;
  const int write_fd = ::fcntl(sv[0], F_DUPFD_CLOEXEC, 3);
  if (write_fd < 0) {
    const int err = errno;
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    ::close(pidfd);
    ::close(sv[0]);
    return Status::FromErrno("cannot watch '" + argv[0] + "'", err);
  }
  auto made = Adopt(io, sv[0], write_fd);
  if (!made.ok()) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    ::close(pidfd);
    return made.status();
  }
  State& state = *(*made)->state_;
  std::string base = argv[0];
  if (auto slash = base.rfind('/'); slash != std::string::npos) {
    base = base.substr(slash + 1);
  }
  state.name = "'" + base + "'";
  state.pid = pid;
  state.pidfd = pidfd;
  state.exit_grace = exit_grace;
  return made;
}

StatusOr<std::unique_ptr<PipeStream>> PipeStream::Adopt(
    boost::asio::io_context& io, int read_fd, int write_fd, std::string peer) {
  auto state = std::make_shared<State>(io);
  state->name =
      peer.empty() ? "descriptor " + std::to_string(read_fd) : std::move(peer);
  struct stat st {};
  state->write_is_socket = ::fstat(write_fd, &st) == 0 && S_ISSOCK(st.st_mode);
  boost::system::error_code ec;
  state->reader.assign(read_fd, ec);
  if (ec) {
    ::close(read_fd);
    ::close(write_fd);
    return Status::InvalidArgument("descriptor " + std::to_string(read_fd) +
                                   " cannot be watched (" + ec.message() +
                                   "); it must be a pipe or a socket");
  }
  state->writer.assign(write_fd, ec);
  if (!ec) state->writer.non_blocking(true, ec);
  if (ec) {
    ::close(write_fd);
    return Status::InvalidArgument("descriptor " + std::to_string(write_fd) +
                                   " cannot be written (" + ec.message() +
                                   "); it must be a pipe or a socket");
  }
  return std::unique_ptr<PipeStream>(new PipeStream(std::move(state)));
}

void PipeStream::Start(DataCallback on_data, ClosedCallback on_closed) {
  state_->on_data = std::move(on_data);
  state_->on_closed = std::move(on_closed);
  if (!state_->closed) state_->StartRead(state_);
}

void PipeStream::Write(std::string_view bytes) {
  State& s = *state_;
  if (s.closed || s.write_broken || bytes.empty()) return;
  s.queue.emplace_back(bytes);
  s.pending += bytes.size();
  // Sending now (not from the next loop turn) keeps request latency low.
  if (!s.write_waiting) s.TryWrite(state_, true);
}

size_t PipeStream::pending_bytes() const { return state_->pending; }

void PipeStream::Close() {
  State& s = *state_;
  if (s.closed) return;
  s.closed = true;
  if (!s.write_waiting) s.TryWrite(state_, false);
  s.CloseDescriptors();
  s.on_data = nullptr;
  s.on_closed = nullptr;
  s.Reap();
}

Status PipeStream::Flush(Seconds limit) {
  State& s = *state_;
  const auto deadline = DeadlineIn(limit);
  while (!s.closed && !s.write_broken && !s.queue.empty()) {
    if (s.WriteSome()) continue;
    if (s.write_broken) break;
    pollfd p{s.writer.native_handle(), POLLOUT, 0};
    const int left = MillisLeft(deadline);
    if (left == 0) break;
    if (::poll(&p, 1, left) < 0 && errno != EINTR) break;
  }
  if (s.queue.empty()) return Status::Ok();
  return Status::TimedOut(std::to_string(s.pending) + " bytes to " + s.name +
                          " could not be written in time");
}

pid_t PipeStream::pid() const { return state_->pid; }

}  // namespace gs
