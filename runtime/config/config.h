// The runtime's configuration: typed structs with documented defaults, and
// the loaders that fill them from `gsrt.yaml` (or the file named by the
// GSRT_CONFIG environment variable). docs/configuration.md is the user's
// reference; keep the two in step.
//
// Loading is three steps: parse (config_yaml.h: YAML syntax, types, unknown
// keys), resolve (this file: paths and defaults that depend on the machine)
// and validate (config_validate.h: rules across keys). Only the first needs
// yaml-cpp; the other two are pure functions of a Config.
#ifndef GSRT_RUNTIME_CONFIG_CONFIG_H_
#define GSRT_RUNTIME_CONFIG_CONFIG_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/clock.h"
#include "runtime/base/status.h"
#include "runtime/jobs/host_config.h"
#include "runtime/jobs/worker_mode.h"

namespace gs {

enum class ReplicationMode : uint8_t { kOff, kFixed, kDynamic };
enum class ProgressMode : uint8_t { kAuto, kAlways, kNever };

// The spelling used in config files ("fixed", "auto", ...).
std::string_view ReplicationModeName(ReplicationMode mode);
std::string_view ProgressModeName(ProgressMode mode);

// How often a task may be tried again, by kind of failure (HTCondor DAGMan
// RETRY n UNLESS-EXIT). Each count is of further attempts after the first.
struct RetryBudgets {
  // Attempts after an application failure (non-zero exit, missing output).
  // Default: 1.
  int app = 1;
  // Attempts after an infrastructure failure (host lost, connection cut).
  // These charge the host (distrust), not the task. Default: 5.
  int infra = 5;
  // Attempts after the job ran past its operation's timeout. Default: 1.
  int timeout = 1;
  // Delay before the first retry, doubled for each further one. Default: 1.
  Seconds backoff = 1.0;
  // Upper bound of that delay. Default: 60.
  Seconds backoff_max = 60;
  // Exit codes that mean "do not retry" (the application said the input is
  // bad). Default: none.
  std::vector<int> unless_exit;

  bool operator==(const RetryBudgets&) const = default;
};

struct ReplicationConfig {
  // off: one job per task; fixed: up to `threshold` replicas of a running
  // task on free hosts (WQR-FT); dynamic: the threshold is 1 + 1/SR with SR
  // the run's successful over submitted jobs (WQDR-FT). Default: off.
  ReplicationMode mode = ReplicationMode::kOff;
  // Fixed mode: most instances of one task, counting the first job.
  // Default: 2.
  int threshold = 2;
  // Dynamic mode: an optional bound on 1 + 1/SR (the paper has none).
  // Default: 0, none.
  int cap = 0;

  bool operator==(const ReplicationConfig&) const = default;
};

// Weights of the host ranking (paper 004): grank = alpha*rrank +
// beta*prank, predicted time = mu*ET + gamma*FTT + delta.
struct RankWeights {
  double alpha = 0.5;  // Default: 0.5. Weight of reliability.
  double beta = 0.5;   // Default: 0.5. Weight of predicted performance.
  double mu = 1.0;     // Default: 1.0. Weight of execution time.
  double gamma = 1.0;  // Default: 1.0. Weight of file transfer time.

  bool operator==(const RankWeights&) const = default;
};

// The `runtime:` block.
struct RuntimeConfig {
  // Scheduling policy, one of KnownPolicies() (config_validate.h), always
  // lower case. Default: "mct".
  std::string policy = "mct";
  // Where jobs, data versions and logs go. Absolute after loading (a
  // relative path is taken from the master's working directory).
  // Default: ".gsrt".
  std::string work_dir = ".gsrt";
  // The SQLite history (journal). Absolute after loading. Default:
  // "<work_dir>/history.db".
  std::string history;
  // A Chrome trace-event JSON file of each run (docs/observing.md);
  // GSRT_TRACE overrides it. Absolute after loading. Default: "" (none).
  std::string trace;
  // HOST:PORT of the live page (docs/observing.md); GSRT_DASHBOARD
  // overrides it. Default: "" (no page).
  std::string dashboard;
  RetryBudgets retries;
  // Seconds an operation's job may run before it is killed, by operation
  // name. Operations not listed have no limit. Default: empty.
  std::map<std::string, Seconds> timeout;
  ReplicationConfig replication;
  RankWeights rank;
  // Seconds between heartbeats of agents; a host silent for a few
  // heartbeats counts as lost. Default: 5.
  Seconds heartbeat = 5;
  // Seconds with tasks ready, slots free and nothing running or ending
  // before the run counts as stalled and its ready tasks fail; 0 = never.
  // Default: 60.
  Seconds stall_timeout = 60;
  // Hosts logged in and installed at once when GS_On starts them
  // (docs/ssh.md, "The start"). Default: 8.
  int connect_parallel = 8;
  // Days the evidence of failed attempts (work_dir/failed) is kept; older
  // sessions are removed when a run starts. 0 = until the user removes it.
  // Default: 30.
  double keep_failed = 30;
  // The progress line on stderr: auto shows it only on a terminal.
  // Default: auto.
  ProgressMode progress = ProgressMode::kAuto;
  // Local jobs run on persistent workers (`NAME-worker serve`) or one
  // process each. Default: persistent (docs/benchmarks.md, "(b)").
  WorkerMode workers = WorkerMode::kPersistent;
  // A persistent worker is replaced after this many jobs. Default: 1000.
  int worker_max_jobs = 1000;
  // ... or once its peak resident memory passed this many MiB; 0 = no
  // bound. Default: 2048.
  int worker_max_memory = 2048;
  // Results that last across runs (docs/reuse.md): a task whose key
  // matches one an earlier run of this work dir finished is not run, its
  // outputs come from the work dir's store. GSRT_REUSE overrides it.
  // Default: false.
  bool reuse = false;
  // Bytes the store keeps at a run's end; the least recently used results
  // go first. 0 = no limit. Default: 10G.
  uint64_t reuse_limit = uint64_t{10} << 30;
  // Operations that always run with reuse on (random or time-dependent
  // functions). Default: empty.
  std::vector<std::string> never_reuse;
  // Where an operation may run, by operation name: its jobs go only to
  // hosts carrying one of the labels (a host's `labels`, or its name).
  // Operations not listed run anywhere. Default: empty.
  std::map<std::string, std::vector<std::string>> hosts;

  bool operator==(const RuntimeConfig&) const = default;
};

// A place in the config file. Lines and columns count from 1.
struct SourceMark {
  int line = 0;
  int column = 0;
};

// Where each key came from, for error messages of later stages (adapters
// report "gsrt.yaml:12:5: host 'n1': ..." too).
struct ConfigSource {
  // The file name as the user gave it; "" for configs built in code.
  std::string name;
  // Key paths such as "runtime.retries.app", "hosts[1]", "hosts[1].slots".
  std::map<std::string, SourceMark> marks;

  // "FILE:LINE:COL: " for `path` or its nearest recorded parent, "FILE: "
  // if none is recorded, "" without a file.
  std::string Where(std::string_view path) const;
};

struct Config {
  RuntimeConfig runtime;
  // `host_defaults:`, what every host (but simulated ones) gets: its own
  // `env` entries win, the default `setup` lines run before its own, its
  // own `launcher` replaces the default one.
  HostEnvironment host_defaults;
  std::vector<HostConfig> hosts;
  // Not part of equality: the same settings may come from different files.
  ConfigSource source;

  const HostConfig* FindHost(std::string_view name) const;
  friend bool operator==(const Config& a, const Config& b) {
    return a.runtime == b.runtime && a.host_defaults == b.host_defaults &&
           a.hosts == b.hosts;
  }
};

// The facts of the machine that loading depends on; tests pass their own.
struct ConfigEnv {
  std::string cwd;   // absolute; relative work_dir/history start here
  std::string home;  // for "~/"; "" makes "~/" an error
  std::string user;  // the default ssh user
  int cores = 1;     // slots of the default local host

  // From the running process: getcwd, $HOME, $USER (or the passwd entry),
  // std::thread::hardware_concurrency.
  static ConfigEnv FromProcess();
};

// `host` as its adapter sees it: with `defaults` merged in (as the
// HostDefaults comment says), except for a host that only simulates.
HostConfig WithHostDefaults(const HostEnvironment& defaults, HostConfig host);

// The config without a file: runtime defaults and one `local` host with
// env.cores slots, resolved against `env`.
Config DefaultConfig(const ConfigEnv& env);

// Fills in defaults that depend on the machine or on other keys, expands a
// leading "~/" and makes master-side paths absolute.
Status ResolveConfig(const ConfigEnv& env, Config* config);

// Parses, resolves and validates. Errors start with "NAME:LINE:COL: ".
StatusOr<Config> LoadConfigFromString(std::string_view text,
                                      std::string_view name_for_errors,
                                      const ConfigEnv& env);
StatusOr<Config> LoadConfigFromString(std::string_view text,
                                      std::string_view name_for_errors);
// Reads `path` (relative paths inside start at env.cwd, by default the
// process's cwd).
StatusOr<Config> LoadConfig(const std::string& path, const ConfigEnv& env);
StatusOr<Config> LoadConfig(const std::string& path);
// $GSRT_CONFIG if set (relative to the cwd), else CWD/gsrt.yaml if it
// exists, else DefaultConfig. source.name tells which file was used.
StatusOr<Config> LoadDefaultConfig(const ConfigEnv& env);
StatusOr<Config> LoadDefaultConfig(const std::string& cwd);

}  // namespace gs

#endif  // GSRT_RUNTIME_CONFIG_CONFIG_H_
