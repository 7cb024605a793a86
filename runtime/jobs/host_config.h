// What a host is, as a `hosts:` entry of gsrt.yaml describes it: the part of
// the adapter seam that says which adapter serves a host and with which
// settings. The config layer (runtime/config/) fills these from YAML and
// checks them; adapters only read them. docs/configuration.md is the user's
// reference for every key and default.
#ifndef GSRT_RUNTIME_JOBS_HOST_CONFIG_H_
#define GSRT_RUNTIME_JOBS_HOST_CONFIG_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/clock.h"

namespace gs {

enum class AdapterKind : uint8_t { kLocal, kSsh, kSlurm, kPbs, kSim };
enum class HostKeyCheck : uint8_t { kStrict, kAcceptNew };
enum class BatchMode : uint8_t { kJob, kPilot, kAllocation };

// The spelling used in config files ("ssh", "accept-new", ...).
std::string_view AdapterKindName(AdapterKind kind);
std::optional<AdapterKind> ParseAdapterKind(std::string_view name);
std::string_view HostKeyCheckName(HostKeyCheck check);
std::string_view BatchModeName(BatchMode mode);

// Keys of batch hosts (adapter slurm or pbs).
struct BatchConfig {
  std::string partition;  // Default: "" (the site's default partition/queue).
  std::string account;    // Default: "" (the user's default account).
  std::string qos;        // Default: "" (none).
  // Time limit of each batch job, seconds; 0 asks for the partition's
  // default. Default: 0.
  Seconds walltime = 0;
  // CPUs per batch job. Default: 1.
  int cpus_per_task = 1;
  // Memory per batch job in MiB; 0 asks for the partition's default.
  // Default: 0.
  int64_t mem_mb = 0;
  // Batch jobs kept submitted (queued or running) at once; 0 means as many
  // as slots. Default: 0.
  int max_jobs = 0;
  // job: one batch job per gsrt job; pilot: a few batch jobs each running an
  // agent that takes many gsrt jobs. Default: job.
  // allocation: the master runs inside a Slurm allocation and starts one
  // agent per node of it with srun (adapters/batch/allocation.h).
  BatchMode mode = BatchMode::kJob;
  // Allocation mode, once GS_On made one host per node: that node. Not a
  // key of gsrt.yaml.
  std::string node;
  // Pilot jobs kept running in pilot mode; they share the host's slots.
  // With max_pilots above it, the floor the count never drops below.
  // Default: 1.
  int pilots = 1;
  // Pilot mode: pilots the host may grow to while tasks wait for a slot
  // (pilot_scaling.h); 0 means `pilots` (a fixed count). Default: 0.
  int max_pilots = 0;
  // Pilot mode: seconds a pilot above the floor may stay without a job
  // before it is stopped and its batch job ends. Default: 60.
  Seconds pilot_linger = 60;
  // Pilot mode: seconds a pilot whose master is lost keeps its jobs and
  // waits for the master to be started again (it then serves the new one
  // and hands over its jobs' results); 0: it ends with its master.
  // Default: 120.
  Seconds pilot_reattach = 120;
  // Further arguments for sbatch/qsub, passed as they are. Default: none.
  std::vector<std::string> extra;
  // Name of an ssh host of this config through which the batch commands
  // run (a login node). Default: "" (run them on the master's machine).
  std::string via;
  // Pilot mode: "ADDRESS[:PORT]" where the master listens for its pilots'
  // connections (port 0 or none: any free port). 0.0.0.0 listens on every
  // interface and tells the pilots this machine's host name. Default: ""
  // (127.0.0.1, any free port: pilots on this machine only).
  std::string listen;

  bool operator==(const BatchConfig&) const = default;
};

// What a host's programs start in: `env`, `setup` and `launcher` of a host
// (HostConfig says what each means) or of `host_defaults:`.
struct HostEnvironment {
  std::map<std::string, std::string> env;
  std::vector<std::string> setup;
  std::vector<std::string> launcher;

  bool empty() const {
    return env.empty() && setup.empty() && launcher.empty();
  }
  bool operator==(const HostEnvironment&) const = default;
};

// One entry of the `hosts:` list.
struct HostConfig {
  // Unique name: letters, digits, '.', '_' and '-'. Required.
  std::string name;
  // Adapters to try, in order, until one connects. Required, not empty.
  std::vector<AdapterKind> adapters;
  // ssh: host name or IP address to connect to. Required for ssh.
  std::string address;
  int port = 22;     // ssh: Default: 22.
  std::string user;  // ssh: Default: the master's user name.
  // ssh: private key file; "" uses ssh-agent, then ~/.ssh/id_*. Default: "".
  std::string identity;
  // ssh: the known_hosts file to check host keys against. Default:
  // "~/.ssh/known_hosts".
  std::string known_hosts;
  // ssh: strict refuses unknown host keys; accept-new records a new host's
  // key (a changed key is always refused). Default: strict.
  HostKeyCheck host_key_check = HostKeyCheck::kStrict;
  // ssh: jobs sent to the host's agent beyond its free slots, which it
  // queues and starts the moment a slot frees (hides the round trip of
  // each job's report and the next job). -1: the default, PrefetchDepth().
  int prefetch = -1;
  // ssh: with short jobs, more are queued than `prefetch`: as many as make
  // this many seconds of work per slot at the host's recent mean job time,
  // at most 16 per slot (runtime/sched/prefetch.h). -1: the default,
  // PrefetchWindow(); 0: exactly `prefetch`.
  double prefetch_window = -1;
  // Jobs run at once on the host. Default: the number of cores for local
  // hosts; for batch hosts in pilot mode 0 = what the pilots' allocations
  // give (SlotsFromPilots); 1 for the others (0 before loading fills it in).
  int slots = 0;
  // Memory the host's jobs may hold at once, in GB: a job holds its
  // operation's @Constraints(MemorySize=...) while it runs. Default: 0 (not
  // limited).
  double memory_gb = 0;
  // Directory for the host's files. A remote path is taken from the remote
  // login directory. Default: "<work_dir>/hosts/<name>" for local, sim and
  // batch hosts without `via`; ".gsrt/hosts/<name>" for the others.
  std::string workdir;
  // The host sees the master's files at the same paths, so nothing is
  // copied. Local hosts always do. Default: false.
  bool shared_fs = false;
  // Environment variables of the host's agent, pilots and workers, set
  // before `setup` runs. Default: none.
  std::map<std::string, std::string> env;
  // Shell lines run in a login shell (`sh -l`, so site profiles such as
  // Lmod's are read) before the host's agent, pilot or batch job starts,
  // and for a local host once when it connects: `module load gcc/12`. The
  // workers get the environment they leave. Default: none.
  std::vector<std::string> setup;
  // A command prefix for every worker process the host starts:
  // [apptainer, exec, --nv, image.sif], [srun, --cpu-bind=cores]. Default:
  // none.
  std::vector<std::string> launcher;
  // Names of what the host is or has ("gpu", "bigmem", "site-b"), for
  // runtime.hosts (an operation kept to some hosts); every host also
  // answers to its own name. Default: none.
  std::vector<std::string> labels;
  // The host's GPUs, as CUDA_VISIBLE_DEVICES names them: `gpus: 2` is
  // devices 0 and 1, a list names them. A job of an operation with
  // @Constraints(GPUs=k) holds k of them. Default: not given (a local host
  // has what the master's machine shows, the others none).
  std::optional<std::vector<std::string>> gpus;
  BatchConfig batch;
  // sim: parameters read by the simulated adapter. Default: none.
  std::map<std::string, std::string> sim;

  bool Uses(AdapterKind kind) const;
  HostEnvironment Environment() const { return {env, setup, launcher}; }
  // A pilot-mode batch host without `slots` (and no other adapter to fall
  // back to): each pilot runs as many jobs as its allocation has CPUs.
  bool SlotsFromPilots() const;
  // An allocation-mode slurm host without `slots`: each node's host runs
  // as many jobs as the allocation has CPUs there.
  bool SlotsFromNodes() const;
  // Whether its jobs go to an agent over a channel (ssh, an allocation's
  // srun), whose round trip prefetch hides.
  bool HasRemoteAgent() const;
  // `prefetch` when given, else `slots` (at least 1) for a host with a
  // remote agent (HasRemoteAgent), 0 for the others.
  int PrefetchDepth() const;
  // `prefetch_window` when given, else 0.02 s for a host with a remote
  // agent, 0 for the others.
  double PrefetchWindow() const;
  bool operator==(const HostConfig&) const = default;
};

}  // namespace gs

#endif  // GSRT_RUNTIME_JOBS_HOST_CONFIG_H_
