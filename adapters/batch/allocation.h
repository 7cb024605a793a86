// `mode: allocation` on a slurm host: the master runs inside a Slurm
// allocation (salloc, or an sbatch script: SLURM_JOB_ID is set) and uses
// its nodes as they are, submitting nothing. GS_On makes one host per node
// of the allocation (ExpandAllocationHosts); each node's host is a
// gsrt-agent started there by srun (--overlap, one task, the node's CPUs),
// spoken to over srun's stdin and stdout like an ssh host's agent over its
// channel. A node that dies ends its srun: a lost host like any other. At
// GS_Off the agents end, and their steps with them.
#ifndef GSRT_ADAPTERS_BATCH_ALLOCATION_H_
#define GSRT_ADAPTERS_BATCH_ALLOCATION_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "adapters/adapter.h"
#include "runtime/base/clock.h"
#include "runtime/base/status.h"
#include "runtime/jobs/host_config.h"
#include "runtime/jobs/worker_mode.h"

namespace boost::asio {
class io_context;
}  // namespace boost::asio

namespace gs {

struct AllocationNode {
  std::string name;
  int cpus = 1;

  bool operator==(const AllocationNode&) const = default;
};

// The nodes of an allocation: `hostnames` one per line (`scontrol show
// hostnames`), `cpus_per_node` as SLURM_JOB_CPUS_PER_NODE writes it
// ("2(x3),1"). InvalidArgument when they disagree or do not parse.
StatusOr<std::vector<AllocationNode>> ParseAllocationNodes(
    const std::string& hostnames, const std::string& cpus_per_node);

// The allocation the master runs in, from `env` (SLURM_JOB_ID,
// SLURM_JOB_NODELIST, SLURM_JOB_CPUS_PER_NODE) and `scontrol show
// hostnames`. FailedPrecondition, saying what to do, outside one.
StatusOr<std::vector<AllocationNode>> ReadSlurmAllocation(
    const std::map<std::string, std::string>& env);

// Each `mode: allocation` host of `hosts` replaced by one host per node:
// named HOST-NODE, labelled HOST (so runtime.hosts keeps naming it) and
// with its labels, its slots the node's CPUs (or `slots`, if lower), its
// batch.node the node. `nodes` is what ReadSlurmAllocation said.
std::vector<HostConfig> ExpandAllocationHosts(
    const std::vector<HostConfig>& hosts,
    const std::vector<AllocationNode>& nodes);

// True when some host of `hosts` asks for `mode: allocation`.
bool WantsAllocation(const std::vector<HostConfig>& hosts);

struct AllocationNodeOptions {
  HostConfig host;  // expanded: batch.node set
  std::string job_id;
  std::string agent_program;
  std::string work_dir;  // the agent's --workdir on the node
  Seconds heartbeat = 0;
  WorkerMode workers = WorkerMode::kProcess;
  std::string fetch_logs_to;
};

// srun ... gsrt-agent ...: the command that starts the node's agent.
std::vector<std::string> AllocationAgentArgv(
    const AllocationNodeOptions& options);

// The node's host: an AgentAdapter over the srun's stdin and stdout.
std::unique_ptr<Adapter> MakeAllocationNodeAdapter(
    boost::asio::io_context& io, Clock& clock, AllocationNodeOptions options);

}  // namespace gs

#endif  // GSRT_ADAPTERS_BATCH_ALLOCATION_H_
