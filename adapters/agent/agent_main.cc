// gsrt-agent: serves one master with the agent protocol
// (docs/agent-protocol.md), running jobs with the local adapter in
// --workdir: over stdin/stdout (ssh; adapters/agent/agent_serve.h), over
// TCP as a pilot job (adapters/batch/node/pilot_agent.h), or once for a batch
// job (adapters/batch/node/batch_job_runner.h). The command line is
// adapters/agent/agent_args.h.
#include <signal.h>

#include <iostream>

#include "adapters/agent/agent_args.h"
#include "adapters/agent/agent_serve.h"
#include "adapters/batch/node/batch_job_runner.h"
#include "adapters/batch/node/pilot_agent.h"
#include "runtime/base/command_line.h"

int main(int argc, char** argv) {
  gs::AgentArgs args;
  if (auto stop = gs::ParseAgentArgs(gs::ArgsOf(argc, argv), &args, std::cout,
                                     std::cerr)) {
    return *stop;
  }
  // The master may vanish mid-write: see EPIPE, not a signal.
  ::signal(SIGPIPE, SIG_IGN);
  if (!args.batch_job.empty()) {
    return gs::RunBatchJob(args.batch_job, gs::PrepareWorkDir(args.work_dir),
                           args.launcher);
  }
  if (!args.connect.empty()) return gs::RunPilotAgent(args, std::cerr);
  return gs::ServeStdio(args, std::cerr);
}
