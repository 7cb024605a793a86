// gsrt-agent's command line (docs/agent-protocol.md, "Running the agent"):
//
//   gsrt-agent --workdir DIR [--slots N] [--heartbeat SECONDS]
//              [--workers process|persistent|fork] [--launcher=WORD ...]
//              [--detect-gpus]
//   gsrt-agent --connect HOST:PORT --token-file FILE --pilot NAME
//              --workdir DIR [--slots N] [--heartbeat SECONDS]
//              [--workers process|persistent|fork] [--reattach SECONDS]
//   gsrt-agent --batch-job DIR --workdir DIR
//   gsrt-agent --version
#ifndef GSRT_ADAPTERS_AGENT_AGENT_ARGS_H_
#define GSRT_ADAPTERS_AGENT_AGENT_ARGS_H_

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "runtime/jobs/worker_mode.h"

namespace gs {

enum AgentExit {
  kAgentOk = 0,      // after SHUTDOWN or an orderly end of input
  kAgentFailed = 1,  // protocol error, lost master, unusable work dir
  kAgentUsage = 2,   // bad arguments
};

struct AgentArgs {
  std::string work_dir;
  int slots = 0;  // ParseAgentArgs: the hardware threads unless given
  bool slots_given = false;  // --slots was on the command line
  // What the host offers when that is less than the machine (a pilot's
  // batch allocation), told in HELLO; 0: the machine's cores and memory.
  uint32_t cores_offered = 0;
  uint64_t memory_offered = 0;  // bytes
  double heartbeat = 0;
  // How its local adapter runs jobs (adapters/local/worker_pool.h).
  WorkerMode workers = WorkerMode::kProcess;
  // Pilot mode: HOST:PORT of the master, the token's file ("-":
  // $GSRT_PILOT_TOKEN, never an argument) and the pilot's name.
  std::string connect;
  std::string token_file;
  std::string pilot;
  // A pilot whose master is lost keeps its jobs and waits this long for
  // the next master (the address in its token file); 0: it ends at once.
  double reattach = 0;
  std::string batch_job;  // job mode: the batch directory
  // The host's launcher, put before every worker's command line; one
  // --launcher=WORD per word.
  std::vector<std::string> launcher;
  // Offer jobs the GPUs this machine shows and tell their count in HELLO
  // (an ssh host that declares none); a pilot always does.
  bool detect_gpus = false;
};

// The options that give `launcher` to gsrt-agent: --launcher=WORD each.
// Inline: the adapters that start agents are built without this file's .cc.
inline std::vector<std::string> LauncherArgs(
    const std::vector<std::string>& launcher) {
  std::vector<std::string> args;
  for (const std::string& word : launcher) args.push_back("--launcher=" + word);
  return args;
}

// Parses `args` (without argv[0]) into `agent`. Returns the exit code when
// gsrt-agent must stop (--help, --version: 0; a mistake: 2, told on
// `err`), nullopt to go on.
std::optional<int> ParseAgentArgs(const std::vector<std::string>& args,
                                  AgentArgs* agent, std::ostream& out,
                                  std::ostream& err);

}  // namespace gs

#endif  // GSRT_ADAPTERS_AGENT_AGENT_ARGS_H_
