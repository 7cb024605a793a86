// gsrt-agent serving one master: the agent (agent.h) over a descriptor pair,
// its jobs run by an embedded LocalAdapter in the work dir, until SHUTDOWN,
// the end of the stream, an error or a signal (SIGTERM, SIGINT and SIGHUP
// act like SHUTDOWN). The ssh mode serves its stdin/stdout; a pilot
// (adapters/batch/node/pilot_agent.h) a TCP connection.
#ifndef GSRT_ADAPTERS_AGENT_AGENT_SERVE_H_
#define GSRT_ADAPTERS_AGENT_AGENT_SERVE_H_

#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <utility>

#include "adapters/adapter.h"
#include "adapters/agent/agent_args.h"
#include "runtime/base/clock.h"
#include "runtime/base/status.h"

namespace gs {

// An absolute, canonical work dir, created when missing. On failure the
// path is returned as given: the local adapter's Connect() then fails and
// the agent tells the master why at HELLO.
std::string PrepareWorkDir(const std::string& dir);

// Moves the protocol channel (descriptors 0 and 1) to private descriptors
// and points 0 at /dev/null and 1 at stderr, so that whatever prints (a
// library, a stray printf) cannot corrupt the stream. Returns the read and
// write descriptors.
StatusOr<std::pair<int, int>> TakeStdioChannel();

// Puts a decorator between the agent and its local adapter (a pilot's
// SignalGraceAdapter); null or returning null: the local adapter itself.
using RunnerDecorator =
    std::function<std::unique_ptr<Adapter>(Adapter& local, Clock& clock)>;

// A new connection to the master, greeted (a pilot's: the master may be a
// new one, started after the old one crashed): a socket descriptor.
using MasterReconnect = std::function<StatusOr<int>()>;

// Serves the master on `in_fd` and `out_fd` (taken over) with `args`'
// work dir, slots and heartbeat. Blocks until the agent ends; returns
// kAgentOk or kAgentFailed. Its own messages go to `err`.
//
// With `reconnect` and args.reattach > 0, a lost master does not end the
// agent: its jobs go on and `reconnect` is tried every second for
// args.reattach seconds; the agent then serves the master it reached (or
// ends, killing its jobs, when none answered).
int ServeMaster(int in_fd, int out_fd, const AgentArgs& args,
                const RunnerDecorator& decorate, std::ostream& err,
                const MasterReconnect& reconnect = nullptr);

// The ssh mode: TakeStdioChannel, then ServeMaster.
int ServeStdio(const AgentArgs& args, std::ostream& err);

}  // namespace gs

#endif  // GSRT_ADAPTERS_AGENT_AGENT_SERVE_H_
