#include "tests/support/adapter_factories.h"

#include "adapters/agent/local_agent.h"
#include "adapters/local/local_adapter.h"

namespace gs {

const std::vector<AdapterFactory>& AdapterFactories() {
  static const auto* factories = new std::vector<AdapterFactory>{
      {
          .name = "local",
          .make = [](const AdapterTestEnv& env) -> std::unique_ptr<Adapter> {
            LocalAdapterOptions options;
            options.slots = env.slots;
            options.work_dir = env.work_dir;
            return std::make_unique<LocalAdapter>(*env.io, *env.clock, options);
          },
          .worker = GSRT_TEST_WORKER,
      },
      {
          // gsrt-agent as a child process over a pipe: the agent protocol
          // end to end (adapters/agent/CMakeLists.txt defines GSRT_AGENT).
          .name = "agent_pipe",
          .skip_reason =
              [] {
#ifdef GSRT_AGENT
                return std::string();
#else
                return std::string("GSRT_AGENT is not defined in this build");
#endif
              },
          .make = [](const AdapterTestEnv& env) -> std::unique_ptr<Adapter> {
            LocalAgentOptions options;
#ifdef GSRT_AGENT
            options.program = GSRT_AGENT;
#endif
            options.work_dir = env.work_dir;
            options.slots = env.slots;
            options.adapter.heartbeat_interval = 1;
            return MakeLocalAgentAdapter(*env.io, *env.clock, options);
          },
          .worker = GSRT_TEST_WORKER,
      },
  };
  return *factories;
}

}  // namespace gs
