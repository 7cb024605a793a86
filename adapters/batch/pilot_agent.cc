#include "adapters/batch/pilot_agent.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>

#include "adapters/agent/agent_serve.h"
#include "adapters/batch/batch_allocation.h"
#include "adapters/batch/pilot_auth.h"
#include "adapters/batch/signal_grace.h"
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

StatusOr<int> ConnectToMaster(const AgentArgs& args) {
  StatusOr<std::string> token = PilotToken(args);
  if (!token.ok()) return token.status();
  StatusOr<HostPort> target = ParseHostPort(args.connect);
  if (!target.ok()) return target.status();
  Status last;
  for (int attempt = 0; attempt < 5; ++attempt) {
    if (attempt > 0) ::sleep(1u << (attempt - 1));
    StatusOr<int> fd = ConnectTcp(target->host, target->port, 10);
    if (!fd.ok()) {
      last = fd.status();
      continue;
    }
    last = WriteAll(*fd, PilotGreeting(*token, args.pilot));
    if (last.ok()) return *fd;
    ::close(*fd);
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
      err);
}

}  // namespace gs
