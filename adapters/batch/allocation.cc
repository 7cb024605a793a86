#include "adapters/batch/allocation.h"

#include <algorithm>
#include <cstdlib>

#include "adapters/agent/agent_adapter.h"
#include "adapters/agent/agent_args.h"
#include "adapters/host_environment.h"
#include "adapters/transport/pipe_stream.h"
#include "runtime/base/process_spawn.h"

namespace gs {
namespace {

// Seconds `scontrol show hostnames` may take.
constexpr Seconds kScontrolTimeout = 30;
// Seconds an agent whose input ended gets before its srun is killed.
constexpr Seconds kExitGrace = 5;

std::string Get(const std::map<std::string, std::string>& env,
                const std::string& key) {
  auto it = env.find(key);
  return it == env.end() ? "" : it->second;
}

}  // namespace

StatusOr<std::vector<AllocationNode>> ParseAllocationNodes(
    const std::string& hostnames, const std::string& cpus_per_node) {
  std::vector<AllocationNode> nodes;
  size_t start = 0;
  while (start < hostnames.size()) {
    size_t nl = hostnames.find('\n', start);
    if (nl == std::string::npos) nl = hostnames.size();
    std::string name = hostnames.substr(start, nl - start);
    while (!name.empty() && (name.back() == ' ' || name.back() == '\r'))
      name.pop_back();
    if (!name.empty()) nodes.push_back({name, 1});
    start = nl + 1;
  }
  // "2(x3),1": 2 CPUs on each of 3 nodes, then 1.
  std::vector<int> cpus;
  size_t i = 0;
  const std::string& c = cpus_per_node;
  while (i < c.size()) {
    size_t end = i;
    while (end < c.size() && c[end] >= '0' && c[end] <= '9') ++end;
    if (end == i) break;
    const int count = std::atoi(c.substr(i, end - i).c_str());
    int times = 1;
    i = end;
    if (c.compare(i, 2, "(x") == 0) {
      size_t close = c.find(')', i);
      if (close == std::string::npos) break;
      times = std::atoi(c.substr(i + 2, close - i - 2).c_str());
      i = close + 1;
    }
    for (int t = 0; t < times && cpus.size() < 1000000; ++t) {
      cpus.push_back(count);
    }
    if (i < c.size() && c[i] == ',') ++i;
  }
  if (nodes.empty() || i < c.size() || cpus.size() != nodes.size()) {
    return Status::InvalidArgument(
        "cannot read the allocation: " + std::to_string(nodes.size()) +
        " node names but SLURM_JOB_CPUS_PER_NODE='" + cpus_per_node + "'");
  }
  for (size_t k = 0; k < nodes.size(); ++k)
    nodes[k].cpus = std::max(1, cpus[k]);
  return nodes;
}

StatusOr<std::vector<AllocationNode>> ReadSlurmAllocation(
    const std::map<std::string, std::string>& env) {
  const std::string job = Get(env, "SLURM_JOB_ID");
  const std::string list = Get(env, "SLURM_JOB_NODELIST");
  if (job.empty() || list.empty()) {
    return Status::FailedPrecondition(
        "'mode: allocation' uses the Slurm allocation the master runs in, "
        "but SLURM_JOB_ID or SLURM_JOB_NODELIST is not set: start the "
        "program inside one (salloc -N 3 ./app, or an sbatch script), or "
        "use mode: pilot");
  }
  const std::string scontrol = FindInPath("scontrol");
  if (scontrol.empty()) {
    return Status::FailedPrecondition(
        "'mode: allocation': scontrol is not on PATH; load the site's Slurm "
        "module first");
  }
  auto out =
      RunProgram({scontrol, "show", "hostnames", list}, kScontrolTimeout);
  if (!out.ok()) return out.status().WithContext("scontrol show hostnames");
  if (out->exit_code != 0) {
    return Status::Unavailable(
        DescribeFailure({scontrol, "show", "hostnames", list}, *out));
  }
  auto nodes =
      ParseAllocationNodes(out->out, Get(env, "SLURM_JOB_CPUS_PER_NODE"));
  if (!nodes.ok()) return nodes.status().WithContext("job " + job);
  return nodes;
}

bool WantsAllocation(const std::vector<HostConfig>& hosts) {
  return std::any_of(hosts.begin(), hosts.end(), [](const HostConfig& h) {
    return h.batch.mode == BatchMode::kAllocation &&
           h.Uses(AdapterKind::kSlurm);
  });
}

std::vector<HostConfig> ExpandAllocationHosts(
    const std::vector<HostConfig>& hosts,
    const std::vector<AllocationNode>& nodes) {
  std::vector<HostConfig> out;
  for (const HostConfig& host : hosts) {
    if (host.batch.mode != BatchMode::kAllocation ||
        !host.Uses(AdapterKind::kSlurm)) {
      out.push_back(host);
      continue;
    }
    for (const AllocationNode& node : nodes) {
      HostConfig one = host;
      one.name = host.name + "-" + node.name;
      one.adapters = {AdapterKind::kSlurm};
      one.batch.node = node.name;
      one.slots = host.slots > 0 ? std::min(host.slots, node.cpus) : node.cpus;
      if (std::find(one.labels.begin(), one.labels.end(), host.name) ==
          one.labels.end()) {
        one.labels.push_back(host.name);
      }
      out.push_back(std::move(one));
    }
  }
  return out;
}

std::vector<std::string> AllocationAgentArgv(
    const AllocationNodeOptions& options) {
  const HostConfig& host = options.host;
  std::vector<std::string> agent = {
      options.agent_program, "--workdir", options.work_dir, "--slots",
      std::to_string(std::max(1, host.slots)), "--heartbeat",
      std::to_string(options.heartbeat), "--workers",
      std::string(WorkerModeName(options.workers)),
      // The node's GPUs of the allocation (srun gives a step all of the
      // job's GRES on its node): found by the agent, named per job.
      "--detect-gpus"};
  for (std::string& word : LauncherArgs(host.launcher)) {
    agent.push_back(std::move(word));
  }
  // One task on the node, holding its CPUs, beside whatever else runs in
  // the allocation (--overlap); its stdio is the agent's channel, which
  // --unbuffered passes on as it comes (slurmstepd otherwise holds output
  // until a newline, and frames have none).
  std::vector<std::string> argv = {
      "srun",
      "--jobid=" + options.job_id,
      "--overlap",
      "--nodes=1",
      "--ntasks=1",
      "--nodelist=" + host.batch.node,
      "--cpus-per-task=" + std::to_string(std::max(1, host.slots)),
      "--kill-on-bad-exit=1",
      "--unbuffered",
      "--quiet",
      "--job-name=gsrt-agent-" + host.batch.node};
  for (const std::string& extra : host.batch.extra) argv.push_back(extra);
  argv.push_back("--");
  for (std::string& word :
       InHostEnvironment(host.name, host.Environment(), std::move(agent))) {
    argv.push_back(std::move(word));
  }
  return argv;
}

std::unique_ptr<Adapter> MakeAllocationNodeAdapter(
    boost::asio::io_context& io, Clock& clock, AllocationNodeOptions options) {
  auto factory = [&io, argv = AllocationAgentArgv(options)]()
      -> StatusOr<std::unique_ptr<ByteStream>> {
    auto stream = PipeStream::Spawn(io, argv, kExitGrace);
    if (!stream.ok()) return stream.status();
    return std::unique_ptr<ByteStream>(std::move(stream).value());
  };
  AgentAdapterOptions ao;
  ao.kind = "slurm";
  ao.host_name = options.host.name;
  ao.heartbeat_interval = options.heartbeat;
  ao.shares_master_files = options.host.shared_fs;
  ao.fetch_logs_to = options.fetch_logs_to;
  return std::make_unique<AgentAdapter>(io, clock, std::move(factory), ao);
}

}  // namespace gs
