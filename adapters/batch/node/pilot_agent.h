// gsrt-agent --connect: a pilot job's agent (docs/slurm.md, "Pilots"). It
// connects to the master over TCP (a few tries), greets it with the run's
// token and the pilot's name, and serves it there; its workers' reports of
// a kill by signal wait a moment (signal_grace.h), so that a cancelled
// pilot is a lost host and not a failed task. With --reattach, a lost
// master does not end it: its jobs go on and it serves the next master
// that its token file names (a master restarted after a crash).
#ifndef GSRT_ADAPTERS_BATCH_NODE_PILOT_AGENT_H_
#define GSRT_ADAPTERS_BATCH_NODE_PILOT_AGENT_H_

#include <ostream>

#include "adapters/agent/agent_args.h"
#include "adapters/batch/node/batch_allocation.h"
#include "runtime/base/clock.h"
#include "runtime/base/status.h"

namespace gs {

// The token of `args`: read from args.token_file (mode 0600), or from
// $GSRT_PILOT_TOKEN when that is "-".
StatusOr<std::string> PilotToken(const AgentArgs& args);

// The name a pilot greets with: "NAME@BATCHID" inside a Slurm or PBS job
// (SLURM_JOB_ID, PBS_JOBID), else NAME.
std::string PilotGreetingName(const AgentArgs& args,
                              const EnvironmentLookup& lookup);

// One try at a greeted connection to the master: the address and token
// of the token file when it names an address (the master now), else
// --connect's. A socket descriptor.
StatusOr<int> ConnectToMasterOnce(const AgentArgs& args, Seconds timeout);

// ConnectToMasterOnce up to five times over about 15 s (the master listens
// before it submits the pilot; the tries cover a passing network fault).
StatusOr<int> ConnectToMaster(const AgentArgs& args);

// `args` as a pilot inside `allocation` runs: it offers the allocation's
// CPUs and memory, and takes as many jobs at once as it has CPUs unless
// --slots said otherwise.
AgentArgs SizedByAllocation(const AgentArgs& args,
                            const BatchAllocation& allocation);

// Sizes the pilot by its batch allocation (the environment), then
// ConnectToMaster and ServeMaster with the signal grace. Returns the exit
// code; why it failed goes to `err`.
int RunPilotAgent(const AgentArgs& args, std::ostream& err);

}  // namespace gs

#endif  // GSRT_ADAPTERS_BATCH_NODE_PILOT_AGENT_H_
