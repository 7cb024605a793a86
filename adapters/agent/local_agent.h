// A "local agent": gsrt-agent started as a child of the master, spoken to
// over its stdin/stdout (PipeStream). Used by tests, the conformance suite
// and benchmarks, and by hosts that want agent semantics on this machine.
#ifndef GSRT_ADAPTERS_AGENT_LOCAL_AGENT_H_
#define GSRT_ADAPTERS_AGENT_LOCAL_AGENT_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "adapters/agent/agent_adapter.h"
#include "runtime/jobs/worker_mode.h"

namespace gs {

struct LocalAgentOptions {
  // Path of the gsrt-agent program.
  std::string program;
  // The agent's --workdir (created by the agent when missing).
  std::string work_dir;
  // The agent's --slots; 0 leaves the agent's default (hardware threads).
  int slots = 0;
  // The agent's --heartbeat (its watchdog on the master); 0: none, the end
  // of the pipe is always noticed.
  Seconds agent_heartbeat = 0;
  // The agent's --workers.
  WorkerMode workers = WorkerMode::kProcess;
  // Seconds a closed agent gets to exit before SIGKILL.
  Seconds exit_grace = 2;
  // The adapter's options; shares_master_files defaults to true here (the
  // agent runs on this machine).
  AgentAdapterOptions adapter = DefaultAdapterOptions();

  static AgentAdapterOptions DefaultAdapterOptions();
};

// The agent's command line.
std::vector<std::string> LocalAgentArgv(const LocalAgentOptions& options);

// An AgentAdapter whose Connect() starts a fresh local agent;
// `on_started`, when given, gets the pid of each agent started (tests).
std::unique_ptr<AgentAdapter> MakeLocalAgentAdapter(
    boost::asio::io_context& io, Clock& clock, LocalAgentOptions options,
    std::function<void(int pid)> on_started = nullptr);

}  // namespace gs

#endif  // GSRT_ADAPTERS_AGENT_LOCAL_AGENT_H_
