#include "runtime/hosts/registry.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>

#include "adapters/batch/allocation.h"
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
std::vector<SizedWait> PastQueueWaits(const std::string& history_path,
                                      const std::string& host) {
  std::vector<SizedWait> out;
  if (history_path.empty() || ::access(history_path.c_str(), R_OK) != 0) {
    return out;
  }
  auto history = History::Open(history_path);
  if (!history.ok()) return out;
  // Enough for 20 of each of a few job sizes.
  auto waits = (*history)->LoadQueueWaits(host, 200);
  if (!waits.ok()) return out;
  for (const QueueWait& w : *waits) {
    out.push_back({{w.cores, w.nodes, w.walltime}, w.started - w.submitted});
  }
  return out;
}

}  // namespace

bool AdapterAvailable(AdapterKind kind) {
  return kind == AdapterKind::kLocal || kind == AdapterKind::kSsh ||
         kind == AdapterKind::kSim || kind == AdapterKind::kSlurm ||
         kind == AdapterKind::kPbs;
}

namespace {

// A node of the allocation the master runs in (adapters/batch/allocation.h).
StatusOr<std::unique_ptr<Adapter>> MakeAllocationAdapter(
    const HostConfig& host, const std::string& agent,
    const AdapterContext& context) {
  if (host.batch.node.empty()) {
    return Status::FailedPrecondition(
        "host '" + host.name +
        "': 'mode: allocation' hosts are made per node at GS_On");
  }
  const char* job = std::getenv("SLURM_JOB_ID");
  AllocationNodeOptions node;
  node.host = host;
  node.job_id = job ? job : "";
  node.agent_program = agent;
  node.work_dir =
      host.workdir.empty()
          ? std::filesystem::absolute(context.config->runtime.work_dir)
                    .string() +
                "/nodes/" + host.batch.node
          : host.workdir + "/" + host.batch.node;
  node.heartbeat = context.config->runtime.heartbeat;
  node.workers = context.config->runtime.workers;
  node.fetch_logs_to = context.config->runtime.work_dir + "/failed";
  return MakeAllocationNodeAdapter(*context.io, *context.clock,
                                   std::move(node));
}

}  // namespace

StatusOr<std::unique_ptr<Adapter>> MakeAdapter(const HostConfig& configured,
                                               const AdapterContext& context) {
  const HostConfig host =
      context.config != nullptr
          ? WithHostDefaults(context.config->host_defaults, configured)
          : configured;
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
      local.environment = host.Environment();
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
      ssh.fetch_logs_to = context.config->runtime.work_dir + "/failed";
      return std::unique_ptr<Adapter>(
          std::make_unique<SshHostAdapter>(*context.io, *context.clock, ssh));
    }
    if (kind == AdapterKind::kSlurm || kind == AdapterKind::kPbs) {
      auto agent = FindAgentProgram();
      if (!agent.ok())
        return agent.status().WithContext("host '" + host.name + "'");
      if (kind == AdapterKind::kSlurm &&
          host.batch.mode == BatchMode::kAllocation) {
        return MakeAllocationAdapter(host, *agent, context);
      }
      BatchAdapterOptions batch;
      batch.host = host;
      batch.host.adapters = {kind};
      batch.agent_program = *agent;
      batch.worker = context.worker;
      batch.past_queue_waits =
          PastQueueWaits(context.config->runtime.history, host.name);
      batch.heartbeat = context.config->runtime.heartbeat;
      batch.workers = context.config->runtime.workers;
      batch.fetch_logs_to = context.config->runtime.work_dir + "/failed";
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

namespace {

// A batch host's programs run on the nodes at the master's paths (the
// adapter starts `agent_program` and the worker as the master finds them),
// so they are checked where those paths are seen: here, or, with `via`, on
// the login node, which sees the cluster's file system.
StatusOr<std::unique_ptr<HostInstaller>> MakeBatchInstaller(
    const HostConfig& host, const Config* config, Seconds timeout) {
  const std::string kind(AdapterKindName(host.adapters.front()));
  const std::string unsupported =
      "gsdeploy setup is not supported for " + kind + " hosts as configured: ";
  BatchAdapterOptions options;
  options.host = host;
  for (size_t i = 0; config != nullptr && i < config->hosts.size(); ++i) {
    if (config->hosts[i].name == host.name) {
      options.where = config->source.Where("hosts[" + std::to_string(i) + "]");
    }
  }
  const HostConfig* login = nullptr;
  if (!host.batch.via.empty()) {
    login = config != nullptr ? config->FindHost(host.batch.via) : nullptr;
    if (login == nullptr || !login->Uses(AdapterKind::kSsh)) {
      return Status::FailedPrecondition(
          unsupported + options.where + "host '" + host.name +
          "': `via: " + host.batch.via +
          "` names no ssh host of this config; add the login node as an "
          "ssh host of that name");
    }
    options.login = *login;
  }
  // What the run would refuse at connect (job mode without shared_fs, a
  // relative workdir behind `via`) is refused here too, with its reason.
  if (Status s = CheckBatchOptions(options); !s.ok()) {
    return Status::FailedPrecondition(unsupported + s.message());
  }
  if (login == nullptr) return MakeLocalInstaller(timeout);
  HostConfig ssh = *login;
  ssh.adapters = {AdapterKind::kSsh};
  auto installer = ConnectSshInstaller(ssh, timeout);
  if (!installer.ok()) {
    return Status::Unavailable("through `via: " + login->name +
                               "`: " + installer.status().message());
  }
  return installer;
}

}  // namespace

StatusOr<std::unique_ptr<HostInstaller>> MakeInstaller(const HostConfig& host,
                                                       const Config* config,
                                                       Seconds timeout) {
  if (!host.adapters.empty()) {
    switch (host.adapters.front()) {
      case AdapterKind::kLocal:
        return MakeLocalInstaller(timeout);
      case AdapterKind::kSsh: {
        auto installer = ConnectSshInstaller(host, timeout);
        if (!installer.ok()) {
          return Status::Unavailable(installer.status().message());
        }
        return installer;
      }
      case AdapterKind::kSlurm:
      case AdapterKind::kPbs:
        return MakeBatchInstaller(host, config, timeout);
      case AdapterKind::kSim:
        return Status::FailedPrecondition(
            "gsdeploy setup is not supported for sim hosts: host '" +
            host.name +
            "' runs no programs (its jobs are simulated), so there is "
            "nothing to set up there; set up the other hosts one by one "
            "with --host NAME");
    }
  }
  return Status::FailedPrecondition(
      "gsdeploy setup is not supported for host '" + host.name +
      "': it names no adapter");
}

Status ExpandAllocations(Config* config) {
  if (!WantsAllocation(config->hosts)) return Status::Ok();
  std::map<std::string, std::string> env;
  for (const char* key :
       {"SLURM_JOB_ID", "SLURM_JOB_NODELIST", "SLURM_JOB_CPUS_PER_NODE"}) {
    if (const char* value = std::getenv(key)) env[key] = value;
  }
  auto nodes = ReadSlurmAllocation(env);
  if (!nodes.ok()) return nodes.status();
  config->hosts = ExpandAllocationHosts(config->hosts, *nodes);
  return Status::Ok();
}

}  // namespace gs
