#include "runtime/deploy/deploy_setup.h"

#include <filesystem>

#include "adapters/ssh/ssh_host_adapter.h"
#include "runtime/deploy/deploy_context.h"
#include "runtime/hosts/registry.h"

namespace gs {

namespace fs = std::filesystem;

namespace {

bool FirstAdapterIsBatch(const HostConfig& host) {
  return !host.adapters.empty() &&
         (host.adapters.front() == AdapterKind::kSlurm ||
          host.adapters.front() == AdapterKind::kPbs);
}

}  // namespace

InstallerMaker DefaultInstallerMaker(Seconds timeout,
                                     std::shared_ptr<const Config> config) {
  return [timeout, config](const HostConfig& host) {
    return MakeInstaller(host, config.get(), timeout);
  };
}

SetupRequest MakeSetupRequest(const std::string& app, const std::string& cwd) {
  SetupRequest request;
  request.app = app;
  fs::path path = fs::path(app + "-worker");
  if (path.is_relative()) path = fs::path(cwd) / path;
  request.worker = path.lexically_normal().string();
  // The ssh adapter starts this agent on hosts that do not share files,
  // the batch adapters on their nodes (the same lookup, in the registry).
  StatusOr<std::string> agent = FindAgentProgram();
  if (agent.ok()) {
    request.agent = *agent;
  } else {
    request.agent_problem = agent.status().message();
  }
  return request;
}

bool RunsMasterPrograms(const HostConfig& host) {
  return SharesMasterFiles(host) || FirstAdapterIsBatch(host);
}

std::vector<SetupProgram> SetupPrograms(const HostConfig& host,
                                        const SetupRequest& request) {
  const bool shared = RunsMasterPrograms(host);
  const bool needs_agent = !shared || FirstAdapterIsBatch(host);
  auto place = [&](const std::string& local) {
    if (shared) return local;
    std::string dir = host.workdir.empty() ? "." : host.workdir;
    return dir + "/bin/" + fs::path(local).filename().string();
  };
  std::vector<SetupProgram> programs;
  programs.push_back({"worker", request.worker, place(request.worker)});
  // The agent goes only where the adapter starts one: not on hosts that
  // run jobs as local processes.
  if (needs_agent &&
      (!request.agent.empty() || !request.agent_problem.empty())) {
    // Named as the ssh adapter runs it, whatever the master's file is;
    // batch nodes run the master's own.
    std::string dir = host.workdir.empty() ? "." : host.workdir;
    programs.push_back({"agent", request.agent,
                        shared ? request.agent : dir + "/bin/gsrt-agent"});
  }
  return programs;
}

bool SetupHostResult::ready() const {
  if (!error.empty() || !unsupported.empty()) return false;
  for (const Program& p : programs) {
    if (!p.ok) return false;
  }
  return true;
}

std::vector<SetupHostResult> SetupHosts(
    const std::vector<const HostConfig*>& hosts, const SetupRequest& request,
    const InstallerMaker& make) {
  std::vector<SetupHostResult> results;
  for (const HostConfig* host : hosts) {
    SetupHostResult r;
    r.host = host->name;
    r.shares_files = RunsMasterPrograms(*host);
    StatusOr<std::unique_ptr<HostInstaller>> installer = make(*host);
    if (!installer.ok()) {
      const Status& s = installer.status();
      (s.code() == Status::Code::kFailedPrecondition ? r.unsupported
                                                     : r.error) = s.message();
      results.push_back(std::move(r));
      continue;
    }
    for (const SetupProgram& program : SetupPrograms(*host, request)) {
      SetupHostResult::Program p;
      p.program = program;
      if (program.local_path.empty()) {
        p.problem = request.agent_problem;
        r.programs.push_back(std::move(p));
        continue;
      }
      StatusOr<ProgramCheck> check =
          r.shares_files
              ? (*installer)->Check(program.host_path)
              : (*installer)->Install(program.local_path, program.host_path);
      if (check.ok()) {
        p.ok = true;
        p.check = std::move(check).value();
      } else {
        p.problem = check.status().message();
      }
      r.programs.push_back(std::move(p));
    }
    results.push_back(std::move(r));
  }
  return results;
}

}  // namespace gs
