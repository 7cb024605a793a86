#include "adapters/agent/agent_serve.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "adapters/agent/agent.h"
#include "adapters/local/host_facts.h"
#include "adapters/local/local_adapter.h"
#include "adapters/transport/pipe_stream.h"
#include "runtime/base/asio_clock.h"
#include "runtime/base/gpu_devices.h"
#include "runtime/base/messages.h"
#include "runtime/base/mutex.h"

namespace gs {

namespace {

// The agent's log on `err` (gsrt-agent's stderr), each message flushed.
class StreamMessages : public MessageSink {
 public:
  explicit StreamMessages(std::ostream& out) : out_(out) {}
  void Say(MessageKind, std::string_view text) override {
    MutexLock lock(&mu_);
    out_ << text << std::flush;
  }
  void Progress(std::string_view) override {}  // an agent draws none

 private:
  Mutex mu_;
  std::ostream& out_;  // written under mu_
};

}  // namespace

std::string PrepareWorkDir(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  fs::path canonical = fs::canonical(fs::absolute(dir, ec), ec);
  if (ec) return dir;
  return canonical.string();
}

StatusOr<std::pair<int, int>> TakeStdioChannel() {
  const int in_fd = ::fcntl(0, F_DUPFD_CLOEXEC, 3);
  const int out_fd = ::fcntl(1, F_DUPFD_CLOEXEC, 3);
  const int devnull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (in_fd < 0 || out_fd < 0 || devnull < 0 || ::dup2(devnull, 0) < 0 ||
      ::dup2(2, 1) < 0) {
    const int err = errno;
    for (int fd : {in_fd, out_fd, devnull}) {
      if (fd >= 0) ::close(fd);
    }
    return Status::FromErrno("cannot set up stdin/stdout", err);
  }
  ::close(devnull);
  return std::pair{in_fd, out_fd};
}

int ServeMaster(int in_fd, int out_fd, const AgentArgs& args,
                const RunnerDecorator& decorate, std::ostream& err,
                const MasterReconnect& reconnect) {
  boost::asio::io_context io(1);
  AsioClock clock(io);
  auto stream = PipeStream::Adopt(io, in_fd, out_fd, "the master");
  if (!stream.ok()) {
    err << "gsrt-agent: " << stream.status().ToString() << "\n";
    return kAgentFailed;
  }
  AgentOptions options;
  options.work_dir = PrepareWorkDir(args.work_dir);
  options.slots = args.slots;
  options.heartbeat = args.heartbeat;
  options.outlive_master = reconnect && args.reattach > 0;
  StreamMessages log(err);
  options.messages = &log;
  options.facts = ReadMachineFacts();
  if (args.cores_offered > 0) options.facts.cores = args.cores_offered;
  if (args.memory_offered > 0) {
    options.facts.memory_total = args.memory_offered;
    options.facts.memory_available =
        std::min(options.facts.memory_available, args.memory_offered);
  }

  LocalAdapterOptions local_options;
  local_options.slots = args.slots;
  local_options.work_dir = options.work_dir;
  local_options.host_name = options.facts.host_name;
  local_options.workers = args.workers;
  local_options.environment.launcher = args.launcher;
  // A pilot, or an ssh host that declares none, hands out the GPUs its
  // allocation or machine shows (the master counts them from HELLO); a
  // declaring ssh host's jobs come with theirs named by the master.
  if (!args.connect.empty() || args.detect_gpus) {
    local_options.gpus = VisibleGpusOfThisMachine();
  }
  options.gpus = static_cast<int>(local_options.gpus.size());
  LocalAdapter local(io, clock, local_options);
  std::unique_ptr<Adapter> decorator =
      decorate ? decorate(local, clock) : nullptr;
  Agent agent(**stream, decorator ? *decorator : local, clock, options);

  Status exit_status;
  boost::asio::signal_set signals(io, SIGTERM, SIGINT, SIGHUP);
  signals.async_wait([&](const boost::system::error_code& ec, int sig) {
    if (ec) return;
    agent.Stop(Status::Cancelled(std::string("stopped by signal SIG") +
                                 sigabbrev_np(sig)));
  });
  // Streams of earlier masters stay until the end: their callbacks may
  // still be queued (the agent ignores them).
  std::vector<std::unique_ptr<PipeStream>> streams;
  streams.push_back(std::move(stream).value());
  std::unique_ptr<Timer> retry;
  Seconds give_up_at = 0;
  std::function<void()> try_reconnect = [&] {
    if (agent.finished()) return;
    StatusOr<int> fd = reconnect();
    if (fd.ok()) {
      const int out = ::fcntl(*fd, F_DUPFD_CLOEXEC, 3);
      auto next = PipeStream::Adopt(io, *fd, out, "the master");
      if (next.ok()) {
        retry.reset();
        streams.push_back(std::move(next).value());
        agent.Reattach(*streams.back());
        return;
      }
    }
    if (clock.Now() >= give_up_at) {
      return agent.Stop(Status::Unavailable(
          "no master came back within " +
          std::to_string(static_cast<int>(args.reattach)) +
          " s (--reattach); the pilot's jobs are killed" +
          (fd.ok() ? std::string() : ": " + fd.status().message())));
    }
    retry = clock.After(1, try_reconnect);
  };
  agent.Start(
      [&](Status why) {
        exit_status = std::move(why);
        io.stop();
      },
      [&](Status) {
        give_up_at = clock.Now() + args.reattach;
        retry = clock.After(1, try_reconnect);
      });
  io.run();
  retry.reset();
  // Last words (an ERROR frame saying why) must reach the master.
  (void)streams.back()->Flush(2);
  streams.back()->Close();
  return exit_status.ok() ? kAgentOk : kAgentFailed;
}

int ServeStdio(const AgentArgs& args, std::ostream& err) {
  StatusOr<std::pair<int, int>> channel = TakeStdioChannel();
  if (!channel.ok()) {
    err << "gsrt-agent: " << channel.status().message() << "\n";
    return kAgentFailed;
  }
  return ServeMaster(channel->first, channel->second, args, nullptr, err);
}

}  // namespace gs
