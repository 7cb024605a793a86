// gsrt-agent: serves one master over stdin/stdout with the agent protocol
// (docs/agent-protocol.md), running jobs with the local adapter in
// --workdir. Its own log lines go to stderr; nothing else ever reaches the
// protocol stream (stdout is moved aside at start).
//
//   gsrt-agent --workdir DIR [--slots N] [--heartbeat SECONDS]
//   gsrt-agent --connect HOST:PORT --token-file FILE --pilot NAME
//              --workdir DIR [--slots N] [--heartbeat SECONDS]
//   gsrt-agent --batch-job DIR --workdir DIR
//   gsrt-agent --version
//
// --connect is a pilot job's agent: it connects to the master over TCP and
// greets it with the run's token (read from FILE, mode 0600, or from
// $GSRT_PILOT_TOKEN when FILE is "-"; never an argument, so that ps and
// squeue do not show it). --batch-job runs one job of a batch queue's job
// (adapters/batch/batch_job_runner.h).
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

#include "adapters/agent/agent.h"
#include "adapters/batch/batch_job_runner.h"
#include "adapters/batch/pilot_auth.h"
#include "adapters/batch/signal_grace.h"
#include "adapters/local/local_adapter.h"
#include "adapters/transport/pipe_stream.h"
#include "adapters/transport/tcp_stream.h"
#include "runtime/base/asio_clock.h"

namespace {

constexpr char kUsage[] =
    "usage: gsrt-agent --workdir DIR [--slots N] [--heartbeat SECONDS]\n"
    "       gsrt-agent --connect HOST:PORT --token-file FILE --pilot NAME\n"
    "                  --workdir DIR [--slots N] [--heartbeat SECONDS]\n"
    "       gsrt-agent --batch-job DIR --workdir DIR\n"
    "       gsrt-agent --version\n"
    "Speaks the gsrt agent protocol on stdin/stdout; started by the master.\n";

struct Args {
  std::string work_dir;
  int slots = gs::LocalAdapterOptions::DefaultSlots();
  double heartbeat = 0;
  std::string connect;     // HOST:PORT of the master (pilot mode)
  std::string token_file;  // "-": $GSRT_PILOT_TOKEN
  std::string pilot;
  std::string batch_job;  // job-mode directory
};

int Usage(const std::string& why) {
  std::fprintf(stderr, "gsrt-agent: %s\n%s", why.c_str(), kUsage);
  return 2;
}

// Returns -1 to go on, otherwise the exit code.
int Parse(int argc, char** argv, Args* args) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    bool has_value = false;
    if (auto eq = arg.find('=');
        arg.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
      has_value = true;
    }
    auto next = [&]() -> bool {
      if (has_value) return true;
      if (i + 1 >= argc) return false;
      value = argv[++i];
      return true;
    };
    if (arg == "--version") {
      std::printf("gsrt-agent %s protocol %d\n", gs::AgentSoftwareVersion(),
                  gs::agent::kProtocolMajor);
      return 0;
    } else if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stderr);
      return 0;
    } else if (arg == "--workdir") {
      if (!next() || value.empty()) return Usage("--workdir needs a directory");
      args->work_dir = value;
    } else if (arg == "--slots") {
      char* end = nullptr;
      if (!next()) return Usage("--slots needs a number");
      const long n = std::strtol(value.c_str(), &end, 10);
      if (*end != '\0' || n < 1 || n > 100000) {
        return Usage("--slots must be a whole number >= 1, not '" + value +
                     "'");
      }
      args->slots = static_cast<int>(n);
    } else if (arg == "--heartbeat") {
      char* end = nullptr;
      if (!next()) return Usage("--heartbeat needs seconds");
      const double s = std::strtod(value.c_str(), &end);
      if (*end != '\0' || !(s >= 0)) {
        return Usage("--heartbeat must be seconds >= 0, not '" + value + "'");
      }
      args->heartbeat = s;
    } else if (arg == "--connect" || arg == "--token-file" ||
               arg == "--pilot" || arg == "--batch-job") {
      if (!next() || value.empty()) return Usage(arg + " needs a value");
      if (arg == "--connect") args->connect = value;
      if (arg == "--token-file") args->token_file = value;
      if (arg == "--pilot") args->pilot = value;
      if (arg == "--batch-job") args->batch_job = value;
    } else {
      return Usage("unknown argument '" + arg + "'");
    }
  }
  if (args->work_dir.empty()) return Usage("--workdir is required");
  if (!args->connect.empty() &&
      (args->token_file.empty() || args->pilot.empty())) {
    return Usage("--connect needs --token-file and --pilot");
  }
  return -1;
}

// An absolute, canonical work dir, created when missing. On failure the
// path is returned as given: the local adapter's Connect() then fails and
// the agent tells the master why at HELLO.
std::string PrepareWorkDir(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  fs::path canonical = fs::canonical(fs::absolute(dir, ec), ec);
  if (ec) return dir;
  return canonical.string();
}

// The pilot's connection to the master, greeted with the token: a socket
// descriptor, or -1 after printing why.
int ConnectToMaster(const Args& args) {
  gs::StatusOr<std::string> token = gs::Status::NotFound("no token");
  if (args.token_file == "-") {
    const char* env = std::getenv("GSRT_PILOT_TOKEN");
    if (env && *env) token = std::string(env);
  } else {
    token = gs::ReadTokenFile(args.token_file);
  }
  auto target = gs::ParseHostPort(args.connect);
  if (!token.ok() || !target.ok()) {
    std::fprintf(
        stderr, "gsrt-agent: %s\n",
        (token.ok() ? target.status() : token.status()).ToString().c_str());
    return -1;
  }
  // The master listens before it submits the pilot; a few tries cover a
  // passing network fault.
  gs::Status last;
  for (int attempt = 0; attempt < 5; ++attempt) {
    if (attempt > 0) ::sleep(1u << (attempt - 1));
    auto fd = gs::ConnectTcp(target->host, target->port, 10);
    if (!fd.ok()) {
      last = fd.status();
      continue;
    }
    last = gs::WriteAll(*fd, gs::PilotGreeting(*token, args.pilot));
    if (last.ok()) return *fd;
    ::close(*fd);
  }
  std::fprintf(stderr, "gsrt-agent: pilot %s: %s\n", args.pilot.c_str(),
               last.ToString().c_str());
  return -1;
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  if (int code = Parse(argc, argv, &args); code >= 0) return code;

  // The master may vanish mid-write: see EPIPE, not a signal.
  ::signal(SIGPIPE, SIG_IGN);
  if (!args.batch_job.empty()) {
    return gs::RunBatchJob(args.batch_job, PrepareWorkDir(args.work_dir));
  }
  int in_fd = -1;
  int out_fd = -1;
  if (!args.connect.empty()) {
    in_fd = ConnectToMaster(args);
    if (in_fd < 0) return 1;
    out_fd = ::fcntl(in_fd, F_DUPFD_CLOEXEC, 3);
  } else {
    // Move the protocol channel aside; stray prints from anywhere now go
    // to stderr instead of corrupting it.
    in_fd = ::fcntl(0, F_DUPFD_CLOEXEC, 3);
    out_fd = ::fcntl(1, F_DUPFD_CLOEXEC, 3);
    const int devnull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (in_fd < 0 || out_fd < 0 || devnull < 0 || ::dup2(devnull, 0) < 0 ||
        ::dup2(2, 1) < 0) {
      std::fprintf(stderr, "gsrt-agent: cannot set up stdin/stdout: %s\n",
                   std::strerror(errno));
      return 1;
    }
    ::close(devnull);
  }

  boost::asio::io_context io(1);
  gs::AsioClock clock(io);
  auto stream = gs::PipeStream::Adopt(io, in_fd, out_fd, "the master");
  if (!stream.ok()) {
    std::fprintf(stderr, "gsrt-agent: %s\n",
                 stream.status().ToString().c_str());
    return 1;
  }

  gs::AgentOptions options;
  options.work_dir = PrepareWorkDir(args.work_dir);
  options.slots = args.slots;
  options.heartbeat = args.heartbeat;
  options.facts = gs::ReadMachineFacts();

  gs::LocalAdapterOptions local_options;
  local_options.slots = args.slots;
  local_options.work_dir = options.work_dir;
  local_options.host_name = options.facts.host_name;
  gs::LocalAdapter local(io, clock, local_options);
  // A pilot's workers get the batch system's kill signal with the agent:
  // their reports wait a moment, so that a cancelled pilot is a lost host,
  // not a failed task (adapters/batch/signal_grace.h).
  gs::SignalGraceAdapter pilot_runner(local, clock);
  gs::Adapter& runner = args.connect.empty()
                            ? static_cast<gs::Adapter&>(local)
                            : static_cast<gs::Adapter&>(pilot_runner);
  gs::Agent agent(**stream, runner, clock, options);

  gs::Status exit_status;
  boost::asio::signal_set signals(io, SIGTERM, SIGINT, SIGHUP);
  signals.async_wait([&](const boost::system::error_code& ec, int sig) {
    if (ec) return;
    agent.Stop(gs::Status::Cancelled(std::string("stopped by signal SIG") +
                                     sigabbrev_np(sig)));
  });
  agent.Start([&](gs::Status why) {
    exit_status = std::move(why);
    io.stop();
  });
  io.run();
  // Last words (an ERROR frame saying why) must reach the master.
  (void)(*stream)->Flush(2);
  (*stream)->Close();
  return exit_status.ok() ? 0 : 1;
}
