#include "tests/support/adapter_factories.h"

#include <cstdio>
#include <cstdlib>

#include "adapters/agent/local_agent.h"
#include "adapters/batch/batch_adapter.h"
#include "adapters/local/local_adapter.h"
#include "adapters/ssh/ssh_host_adapter.h"
#include "tests/support/slurm_testbed.h"
#include "tests/support/sshd_testbed.h"

namespace gs {

namespace {

// One real sshd on 127.0.0.2 for the whole test process, started on first
// use (only the ssh cases pay for it) and stopped at exit. No skipping:
// when it cannot start, the ssh cases fail.
testing::SshdTestbed* SshdForConformance() {
  static testing::SshdTestbed* bed = [] {
    auto* b = new testing::SshdTestbed(1);
    std::string error = b->Start();
    if (!error.empty()) {
      std::fprintf(stderr, "cannot start the sshd test host: %s\n",
                   error.c_str());
      delete b;
      return static_cast<testing::SshdTestbed*>(nullptr);
    }
    std::atexit([] { SshdForConformance()->Stop(); });
    return b;
  }();
  return bed;
}

// A batch host on the local Slurm testbed (tests/testbed/slurm.sh); the
// nodes are this machine, so they see the master's files.
AdapterFactory BatchFactory(std::string name, AdapterKind kind,
                            BatchMode mode) {
  AdapterFactory f;
  f.name = name;
  f.make = [name, kind,
            mode](const AdapterTestEnv& env) -> std::unique_ptr<Adapter> {
    if (const std::string& error = EnsureSlurmTestbed(); !error.empty()) {
      std::fprintf(stderr, "%s\n", error.c_str());
      return nullptr;
    }
    BatchAdapterOptions options;
    options.host.name = name;
    options.host.adapters = {kind};
    options.host.slots = env.slots;
    options.host.workdir = env.work_dir;
    options.host.shared_fs = true;
    options.host.batch.mode = mode;
#ifdef GSRT_AGENT
    options.agent_program = GSRT_AGENT;
#endif
    options.worker = GSRT_TEST_WORKER;
    options.heartbeat = 1;
    options.poll_interval = 0.5;
    options.pilot_start_timeout = 60;
    return MakeBatchAdapter(*env.io, *env.clock, options);
  };
  f.worker = GSRT_TEST_WORKER;
  return f;
}

}  // namespace

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
      {
          // A real sshd on loopback, the agent over an ssh exec channel.
          // The "remote" host is this machine, so it shares the master's
          // files (staging is tested by the agent and engine tests).
          .name = "ssh",
          .make = [](const AdapterTestEnv& env) -> std::unique_ptr<Adapter> {
            testing::SshdTestbed* bed = SshdForConformance();
            if (bed == nullptr) return nullptr;
            SshTarget target = bed->Target(1);
            SshHostOptions options;
            options.host.name = target.name;
            options.host.adapters = {AdapterKind::kSsh};
            options.host.address = target.address;
            options.host.port = target.port;
            options.host.identity = target.identity;
            options.host.known_hosts = target.known_hosts;
            options.host.slots = env.slots;
            options.host.workdir = env.work_dir;
            options.host.shared_fs = true;
#ifdef GSRT_AGENT
            options.agent_program = GSRT_AGENT;
#endif
            options.worker = GSRT_TEST_WORKER;
            options.heartbeat = 1;
            return std::make_unique<SshHostAdapter>(*env.io, *env.clock,
                                                    options);
          },
          .worker = GSRT_TEST_WORKER,
      },
      // The local Slurm cluster, in both modes, and PBS through Debian's
      // slurm-wlm-torque wrappers on the same cluster.
      BatchFactory("slurm_job", AdapterKind::kSlurm, BatchMode::kJob),
      BatchFactory("slurm_pilot", AdapterKind::kSlurm, BatchMode::kPilot),
      BatchFactory("pbs_job", AdapterKind::kPbs, BatchMode::kJob),
      BatchFactory("pbs_pilot", AdapterKind::kPbs, BatchMode::kPilot),
  };
  return *factories;
}

}  // namespace gs
