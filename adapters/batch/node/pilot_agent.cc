#include "adapters/batch/node/pilot_agent.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>

#include "adapters/agent/agent_serve.h"
#include "adapters/batch/node/batch_allocation.h"
#include "adapters/batch/node/pilot_auth.h"
#include "adapters/batch/node/signal_grace.h"
#include "adapters/transport/tcp_stream.h"

namespace gs {

StatusOr<std::string> PilotToken(const AgentArgs& args) {
  if (args.token_file != "-") return ReadTokenFile(args.token_file);
  const char* env = std::getenv("GSRT_PILOT_TOKEN");
  if (env == nullptr || *env == '\0') {
    return Status::NotFound("--token-file - but $GSRT_PILOT_TOKEN is not set");
  }
  return std::string(env);
}

std::string PilotGreetingName(const AgentArgs& args,
                              const EnvironmentLookup& lookup) {
  for (const char* name : {"SLURM_JOB_ID", "PBS_JOBID"}) {
    const char* id = lookup(name);
    if (id != nullptr && *id != '\0') return args.pilot + "@" + id;
  }
  return args.pilot;
}

StatusOr<int> ConnectToMasterOnce(const AgentArgs& args, Seconds timeout) {
  // The token file names the master now (a master started after a crash
  // rewrites it); --connect is the one that submitted the pilot.
  PilotRendezvous meet;
  if (args.token_file == "-") {
    StatusOr<std::string> token = PilotToken(args);
    if (!token.ok()) return token.status();
    meet.token = std::move(token).value();
  } else {
    StatusOr<PilotRendezvous> read = ReadPilotRendezvous(args.token_file);
    if (!read.ok()) return read.status();
    meet = std::move(read).value();
  }
  if (meet.connect.empty()) meet.connect = args.connect;
  StatusOr<HostPort> target = ParseHostPort(meet.connect);
  if (!target.ok()) return target.status();
  StatusOr<int> fd = ConnectTcp(target->host, target->port, timeout);
  if (!fd.ok()) return fd.status();
  const std::string name = PilotGreetingName(
      args, [](const char* n) -> const char* { return std::getenv(n); });
  if (Status s = WriteAll(*fd, PilotGreeting(meet.token, name)); !s.ok()) {
    ::close(*fd);
    return s;
  }
  return *fd;
}

StatusOr<int> ConnectToMaster(const AgentArgs& args) {
  Status last;
  for (int attempt = 0; attempt < 5; ++attempt) {
    if (attempt > 0) ::sleep(1u << (attempt - 1));
    StatusOr<int> fd = ConnectToMasterOnce(args, 10);
    if (fd.ok()) return fd;
    last = fd.status();
  }
  return last.WithContext("pilot " + args.pilot);
}

AgentArgs SizedByAllocation(const AgentArgs& args,
                            const BatchAllocation& allocation) {
  AgentArgs sized = args;
  if (allocation.cpus > 0) {
    sized.cores_offered = allocation.cpus;
    if (!args.slots_given) sized.slots = static_cast<int>(allocation.cpus);
  }
  sized.memory_offered = allocation.memory_bytes;
  return sized;
}

int RunPilotAgent(const AgentArgs& given, std::ostream& err) {
  const AgentArgs args =
      SizedByAllocation(given, AllocationFromEnvironment([](const char* name) {
                          return std::getenv(name);
                        }));
  StatusOr<int> socket = ConnectToMaster(args);
  if (!socket.ok()) {
    err << "gsrt-agent: " << socket.status().ToString() << "\n";
    return kAgentFailed;
  }
  const int out_fd = ::fcntl(*socket, F_DUPFD_CLOEXEC, 3);
  return ServeMaster(
      *socket, out_fd, args,
      [](Adapter& local, Clock& clock) {
        return std::make_unique<SignalGraceAdapter>(local, clock);
      },
      err, [&args]() { return ConnectToMasterOnce(args, 2); });
}

}  // namespace gs
