#include "adapters/agent/local_agent.h"

#include <utility>

#include "adapters/transport/pipe_stream.h"

namespace gs {

AgentAdapterOptions LocalAgentOptions::DefaultAdapterOptions() {
  AgentAdapterOptions options;
  options.host_name = "local-agent";
  options.shares_master_files = true;
  return options;
}

std::vector<std::string> LocalAgentArgv(const LocalAgentOptions& options) {
  std::vector<std::string> argv = {options.program, "--workdir",
                                   options.work_dir};
  if (options.slots > 0) {
    argv.insert(argv.end(), {"--slots", std::to_string(options.slots)});
  }
  if (options.agent_heartbeat > 0) {
    argv.insert(argv.end(),
                {"--heartbeat", std::to_string(options.agent_heartbeat)});
  }
  if (options.workers != WorkerMode::kProcess) {
    argv.insert(argv.end(),
                {"--workers", std::string(WorkerModeName(options.workers))});
  }
  return argv;
}

std::unique_ptr<AgentAdapter> MakeLocalAgentAdapter(
    boost::asio::io_context& io, Clock& clock, LocalAgentOptions options,
    std::function<void(int pid)> on_started) {
  auto factory =
      [&io, argv = LocalAgentArgv(options), grace = options.exit_grace,
       on_started =
           std::move(on_started)]() -> StatusOr<std::unique_ptr<ByteStream>> {
    auto stream = PipeStream::Spawn(io, argv, grace);
    if (!stream.ok()) return stream.status();
    if (on_started) on_started((*stream)->pid());
    return std::unique_ptr<ByteStream>(std::move(stream).value());
  };
  return std::make_unique<AgentAdapter>(io, clock, std::move(factory),
                                        std::move(options.adapter));
}

}  // namespace gs
