#include "adapters/local/worker_pool.h"

#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

#include "runtime/base/process_spawn.h"

namespace gs {

namespace {

// A worker reads its next request as soon as it is idle; one that leaves
// a request unread this long is stuck.
constexpr int kSendTimeoutMs = 5000;

}  // namespace

Status PersistentWorker::Send(const std::string& frame) {
  size_t done = 0;
  while (done < frame.size()) {
    ssize_t n = ::send(socket_, frame.data() + done, frame.size() - done,
                       MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n >= 0) {
      done += static_cast<size_t>(n);
      continue;
    }
    if (errno == EINTR) continue;
    if (errno != EAGAIN) {
      return Status::FromErrno(
          "send a job to worker pid " + std::to_string(pid_), errno);
    }
    pollfd p{socket_, POLLOUT, 0};
    if (::poll(&p, 1, kSendTimeoutMs) <= 0) {
      return Status::TimedOut("worker pid " + std::to_string(pid_) +
                              " does not read its requests");
    }
  }
  return Status::Ok();
}

void PersistentWorker::Answered(const ServeReply& reply, int64_t* user_us,
                                int64_t* system_us) {
  ++jobs_;
  *user_us = reply.user_us - user_us_;
  *system_us = reply.system_us - system_us_;
  user_us_ = reply.user_us;
  system_us_ = reply.system_us;
}

boost::asio::posix::stream_descriptor& PersistentWorker::Channel(
    boost::asio::io_context& io) {
  if (!channel_) {
    channel_ = std::make_unique<boost::asio::posix::stream_descriptor>(io);
    boost::system::error_code ignored;  // a bad fd fails its first read
    channel_->assign(socket_, ignored);
  }
  return *channel_;
}

int PersistentWorker::Stop() {
  if (channel_) {
    channel_->release();  // cancels a pending read; the fd is closed below
    channel_.reset();
  }
  if (pid_ <= 0) return -1;
  // It leads its own process group: children of the user's code go too.
  if (::kill(-pid_, SIGKILL) != 0) ::kill(pid_, SIGKILL);
  int status = -1;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  ::close(socket_);
  pid_ = -1;
  socket_ = -1;
  return status;
}

StatusOr<std::unique_ptr<PersistentWorker>> WorkerPool::Take(
    const std::string& program, const std::vector<std::string>& env,
    int stderr_fd) {
  for (auto it = idle_.rbegin(); it != idle_.rend(); ++it) {
    if ((*it)->program() == program && (*it)->env() == env) {
      std::unique_ptr<PersistentWorker> worker = std::move(*it);
      idle_.erase(std::next(it).base());
      return worker;
    }
  }
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
    return Status::FromErrno("socketpair for a persistent worker", errno);
  }
  // Under a launcher the worker's parent is the launcher's process, not
  // this one: "0" tells it not to check (it still dies with that parent).
  const std::string parent =
      launch_.launcher.empty() ? std::to_string(::getpid()) : "0";
  const std::vector<std::string> argv =
      launch_.Argv({program, command_, parent});
  SpawnRequest req;
  req.argv = &argv;
  req.env = &env;
  req.base_env = launch_.BaseEnvironment();
  req.in.fd = sv[1];
  req.out.fd = sv[1];
  req.err.fd = stderr_fd;
  auto proc = SpawnProcess(req);
  ::close(sv[1]);
  if (!proc.ok()) {
    ::close(sv[0]);
    return proc.status();
  }
  // Its end of the socket tells us when it dies; the pidfd is not needed.
  ::close(proc->pidfd);
  ++started_;
  return std::make_unique<PersistentWorker>(proc->pid, sv[0], program, env);
}

void WorkerPool::Give(std::unique_ptr<PersistentWorker> worker,
                      int64_t max_rss_kb, size_t max_idle) {
  const bool worn = worker->jobs() >= limits_.max_jobs ||
                    (limits_.max_rss_kb > 0 && max_rss_kb > limits_.max_rss_kb);
  if (worn || max_idle == 0) return;  // destroyed: stopped
  if (idle_.size() >= max_idle) idle_.erase(idle_.begin());
  idle_.push_back(std::move(worker));
}

void WorkerPool::Clear() { idle_.clear(); }

}  // namespace gs
