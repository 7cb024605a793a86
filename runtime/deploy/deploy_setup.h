// `gsdeploy setup APP`: early failure detection, as GRID superscalar's
// deployment center did. For every host, the programs a run needs there
// (today APP's worker) must be present, the same as the master's copy, and
// start. Hosts that share the master's files are only checked; the others
// get a copy when it is missing or different.
//
// How a host is reached is the HostInstaller seam: this machine's installer
// and the ssh one (upload when the SHA-256 differs, run --version over ssh,
// at the paths the ssh adapter uses) are here.
#ifndef GSRT_RUNTIME_DEPLOY_DEPLOY_SETUP_H_
#define GSRT_RUNTIME_DEPLOY_DEPLOY_SETUP_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "runtime/base/clock.h"
#include "runtime/base/status.h"
#include "runtime/config/config.h"

namespace gs {

// What a program's check found.
struct ProgramCheck {
  bool uploaded = false;  // a copy was put on the host (missing/different)
  std::string version;    // the first line `PROGRAM --version` printed
};

// How setup reaches one host.
class HostInstaller {
 public:
  virtual ~HostInstaller() = default;
  // Puts the master's `local` at `host_path` when it is missing there or
  // different, makes it executable, and checks that it starts.
  virtual StatusOr<ProgramCheck> Install(const std::string& local,
                                         const std::string& host_path) = 0;
  // Checks that the program at `host_path` (already there: shared files)
  // exists and starts (`host_path --version` exits 0).
  virtual StatusOr<ProgramCheck> Check(const std::string& host_path) = 0;
};

using InstallerMaker =
    std::function<StatusOr<std::unique_ptr<HostInstaller>>(const HostConfig&)>;

// This machine: Check runs the program here; Install copies (under a
// temporary name, then renamed) when the bytes differ. `timeout` bounds
// each --version run.
std::unique_ptr<HostInstaller> MakeLocalInstaller(Seconds timeout);

// gsdeploy's maker: hosts that run here (adapter local) get the local
// installer; ssh hosts one that connects (bounded by the connect timeout;
// failing, the host is unreachable) and runs everything over that session;
// other kinds are Unavailable until their installer is added here.
InstallerMaker DefaultInstallerMaker(Seconds timeout);

struct SetupRequest {
  std::string app;     // APP as the user gave it
  std::string worker;  // the master's APP-worker, absolute
  // The agent program for hosts whose adapter starts one (hosts that do
  // not share the master's files); "" installs no agent.
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
  // Where the host runs it: the same path on hosts sharing the master's
  // files, else WORKDIR/bin/NAME (WORKDIR: the host's workdir; the agent
  // is always WORKDIR/bin/gsrt-agent), where the ssh adapter runs it.
  std::string host_path;
};

// The programs `host` needs for `request`.
std::vector<SetupProgram> SetupPrograms(const HostConfig& host,
                                        const SetupRequest& request);

struct SetupHostResult {
  std::string host;
  bool shares_files = true;
  struct Program {
    SetupProgram program;
    bool ok = false;
    ProgramCheck check;
    std::string problem;  // what is missing or wrong, when !ok
  };
  std::vector<Program> programs;
  std::string error;  // the host could not be reached at all
  bool ready() const;
};

// Sets up every host of `hosts`, one after the other.
std::vector<SetupHostResult> SetupHosts(
    const std::vector<const HostConfig*>& hosts, const SetupRequest& request,
    const InstallerMaker& make);

}  // namespace gs

#endif  // GSRT_RUNTIME_DEPLOY_DEPLOY_SETUP_H_
