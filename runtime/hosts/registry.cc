#include "runtime/hosts/registry.h"

#include <unistd.h>

#include "adapters/batch/batch_adapter.h"
#include "adapters/local/local_adapter.h"
#include "adapters/local/local_installer.h"
#include "adapters/simulated/sim_config.h"
#include "adapters/ssh/ssh_host_adapter.h"
#include "adapters/ssh/ssh_installer.h"
#include "runtime/history/history.h"

namespace gs {
namespace {

// The host's queue waits from earlier runs, newest first: what a batch
// adapter predicts from before it has seen a wait of its own. A missing or
// unreadable history gives none.
std::vector<Seconds> PastQueueWaits(const std::string& history_path,
                                    const std::string& host) {
  std::vector<Seconds> out;
  if (history_path.empty() || ::access(history_path.c_str(), R_OK) != 0) {
    return out;
  }
  auto history = History::Open(history_path);
  if (!history.ok()) return out;
  auto waits = (*history)->LoadQueueWaits(host, 20);
  if (!waits.ok()) return out;
  for (const QueueWait& w : *waits) out.push_back(w.started - w.submitted);
  return out;
}

}  // namespace

bool AdapterAvailable(AdapterKind kind) {
  return kind == AdapterKind::kLocal || kind == AdapterKind::kSsh ||
         kind == AdapterKind::kSim || kind == AdapterKind::kSlurm ||
         kind == AdapterKind::kPbs;
}

StatusOr<std::unique_ptr<Adapter>> MakeAdapter(const HostConfig& host,
                                               const AdapterContext& context) {
  for (AdapterKind kind : host.adapters) {
    if (kind == AdapterKind::kLocal) {
      LocalAdapterOptions local;
      local.slots = host.slots;
      local.work_dir = context.config->runtime.work_dir;
      local.host_name = host.name;
      local.keep_failed = context.config->runtime.keep_failed * 86400;
      local.workers = context.config->runtime.workers;
      local.worker_limits.max_jobs = context.config->runtime.worker_max_jobs;
      local.worker_limits.max_rss_kb =
          int64_t{context.config->runtime.worker_max_memory} * 1024;
      return std::unique_ptr<Adapter>(
          std::make_unique<LocalAdapter>(*context.io, *context.clock, local));
    }
    if (kind == AdapterKind::kSim) {
      return MakeConfiguredSimAdapter(host.name, host.slots, host.sim,
                                      *context.clock);
    }
    if (kind == AdapterKind::kSsh) {
      auto agent = FindAgentProgram();
      if (!agent.ok())
        return agent.status().WithContext("host '" + host.name + "'");
      SshHostOptions ssh;
      ssh.host = host;
      ssh.agent_program = *agent;
      ssh.worker = context.worker;
      ssh.heartbeat = context.config->runtime.heartbeat;
      ssh.workers = context.config->runtime.workers;
      return std::unique_ptr<Adapter>(
          std::make_unique<SshHostAdapter>(*context.io, *context.clock, ssh));
    }
    if (kind == AdapterKind::kSlurm || kind == AdapterKind::kPbs) {
      auto agent = FindAgentProgram();
      if (!agent.ok())
        return agent.status().WithContext("host '" + host.name + "'");
      BatchAdapterOptions batch;
      batch.host = host;
      batch.host.adapters = {kind};
      batch.agent_program = *agent;
      batch.worker = context.worker;
      batch.past_queue_waits =
          PastQueueWaits(context.config->runtime.history, host.name);
      batch.heartbeat = context.config->runtime.heartbeat;
      batch.workers = context.config->runtime.workers;
      if (!host.batch.via.empty()) {
        if (const HostConfig* login =
                context.config->FindHost(host.batch.via)) {
          batch.login = *login;
        }
      }
      for (size_t i = 0; i < context.config->hosts.size(); ++i) {
        if (context.config->hosts[i].name == host.name) {
          batch.where =
              context.config->source.Where("hosts[" + std::to_string(i) + "]");
        }
      }
      return MakeBatchAdapter(*context.io, *context.clock, std::move(batch));
    }
  }
  std::string kinds;
  for (AdapterKind kind : host.adapters) {
    kinds += (kinds.empty() ? "" : ", ") + std::string(AdapterKindName(kind));
  }
  return Status::Unavailable("host '" + host.name + "': adapter " + kinds +
                             " is not available in this build of gsrt "
                             "(available: local, ssh, slurm, pbs, sim)");
}

StatusOr<std::unique_ptr<HostInstaller>> MakeInstaller(const HostConfig& host,
                                                       Seconds timeout) {
  if (!host.adapters.empty()) {
    switch (host.adapters.front()) {
      case AdapterKind::kLocal:
        return MakeLocalInstaller(timeout);
      case AdapterKind::kSsh:
        return ConnectSshInstaller(host, timeout);
      default:  // Seam: the batch installers (through `via`) go here.
        break;
    }
  }
  const std::string kind =
      host.adapters.empty()
          ? "?"
          : std::string(AdapterKindName(host.adapters.front()));
  return Status::Unavailable("setup of " + kind +
                             " hosts is not available in this build of "
                             "gsdeploy yet (only local and ssh hosts)");
}

}  // namespace gs
