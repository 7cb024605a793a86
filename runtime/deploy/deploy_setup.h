// `gsdeploy setup APP`: early failure detection, as GRID superscalar's
// deployment center did. For every host, the programs a run needs there
// (APP's worker; gsrt-agent where the adapter starts one) must be present,
// the same as the master's copy, and start. Hosts that run the master's
// own copies (shared files; batch hosts, whose nodes run them at the
// master's paths) are only checked; the others get a copy when it is
// missing or different.
//
// How a host is reached is the HostInstaller seam (adapters/host_installer.h):
// each kind's installer lives with its adapter, and runtime/hosts makes the
// one a host needs.
#ifndef GSRT_RUNTIME_DEPLOY_DEPLOY_SETUP_H_
#define GSRT_RUNTIME_DEPLOY_DEPLOY_SETUP_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "adapters/host_installer.h"
#include "runtime/base/clock.h"
#include "runtime/base/status.h"
#include "runtime/config/config.h"

namespace gs {

using InstallerMaker =
    std::function<StatusOr<std::unique_ptr<HostInstaller>>(const HostConfig&)>;

// gsdeploy's maker: runtime/hosts' MakeInstaller, each --version run (and
// upload) bounded by `timeout`. `config` (the hosts' file) gives a batch
// host's `via` login node; without it such a host cannot be set up.
InstallerMaker DefaultInstallerMaker(
    Seconds timeout, std::shared_ptr<const Config> config = nullptr);

struct SetupRequest {
  std::string app;     // APP as the user gave it
  std::string worker;  // the master's APP-worker, absolute
  // The agent program for hosts whose adapter starts one (hosts that do
  // not share the master's files; batch hosts); "" installs no agent.
  std::string agent;
  // Why the agent could not be found on the master, reported for every
  // host that needs it ("" when found or not wanted).
  std::string agent_problem;
};

// APP (the master program's path or name, relative to `cwd`) -> its
// worker `APP-worker` beside it, made absolute, and gsrt-agent as the ssh
// adapter finds it (FindAgentProgram).
SetupRequest MakeSetupRequest(const std::string& app, const std::string& cwd);

// One program a host needs.
struct SetupProgram {
  std::string role;        // "worker", "agent"
  std::string local_path;  // on the master
  // Where the host runs it: the same path on hosts that run the master's
  // copies (RunsMasterPrograms), else WORKDIR/bin/NAME (WORKDIR: the
  // host's workdir; the agent is always WORKDIR/bin/gsrt-agent), where
  // the ssh adapter runs it.
  std::string host_path;
};

// Whether `host` runs the master's own copies of the programs, at their
// paths: hosts sharing the master's files, and batch hosts (slurm, pbs),
// whose jobs and pilots start the master's gsrt-agent and worker on nodes
// that see those paths (adapters/batch/batch_adapter.h), in either mode
// and whatever `shared_fs` says of the data.
bool RunsMasterPrograms(const HostConfig& host);

// The programs `host` needs for `request`: the worker everywhere; the
// agent where the adapter starts one (batch hosts in both modes: job mode
// runs `gsrt-agent --batch-job`, pilots `gsrt-agent --connect`; hosts
// reached over ssh that do not share files).
std::vector<SetupProgram> SetupPrograms(const HostConfig& host,
                                        const SetupRequest& request);

struct SetupHostResult {
  std::string host;
  // RunsMasterPrograms: checked in place, not copied.
  bool shares_files = true;
  struct Program {
    SetupProgram program;
    bool ok = false;
    ProgramCheck check;
    std::string problem;  // what is missing or wrong, when !ok
  };
  std::vector<Program> programs;
  std::string error;  // the host could not be reached at all
  // Setup cannot serve this host (a sim host, a batch host the run would
  // refuse): why, naming the host and what to do.
  std::string unsupported;
  bool ready() const;
};

// Sets up every host of `hosts`, one after the other. A maker's
// FailedPrecondition is the host's `unsupported`, any other error its
// `error` (unreachable).
std::vector<SetupHostResult> SetupHosts(
    const std::vector<const HostConfig*>& hosts, const SetupRequest& request,
    const InstallerMaker& make);

}  // namespace gs

#endif  // GSRT_RUNTIME_DEPLOY_DEPLOY_SETUP_H_
