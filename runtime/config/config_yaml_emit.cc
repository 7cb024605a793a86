// ConfigToYaml: the inverse of ParseConfigYaml, for `gsrt config`-style
// dumps and for the round-trip test.
#include <yaml-cpp/yaml.h>

#include <charconv>

#include "runtime/base/units.h"
#include "runtime/config/config_yaml.h"

namespace gs {
namespace {

// Shortest text that reads back as the same double.
std::string Num(double value) {
  char buf[64];
  auto result = std::to_chars(buf, buf + sizeof buf, value);
  return std::string(buf, result.ptr);
}

void EmitStringMap(YAML::Emitter& out, std::string_view key,
                   const std::map<std::string, std::string>& map) {
  if (map.empty()) return;
  out << YAML::Key << std::string(key) << YAML::Value << YAML::BeginMap;
  for (const auto& [k, v] : map) out << YAML::Key << k << YAML::Value << v;
  out << YAML::EndMap;
}

void EmitRuntime(YAML::Emitter& out, const RuntimeConfig& rt) {
  out << YAML::Key << "runtime" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "policy" << YAML::Value << rt.policy;
  out << YAML::Key << "work_dir" << YAML::Value << rt.work_dir;
  if (!rt.history.empty()) {
    out << YAML::Key << "history" << YAML::Value << rt.history;
  }
  if (!rt.trace.empty()) {
    out << YAML::Key << "trace" << YAML::Value << rt.trace;
  }
  if (!rt.dashboard.empty()) {
    out << YAML::Key << "dashboard" << YAML::Value << rt.dashboard;
  }
  const RetryBudgets& re = rt.retries;
  out << YAML::Key << "retries" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "app" << YAML::Value << re.app;
  out << YAML::Key << "infra" << YAML::Value << re.infra;
  out << YAML::Key << "timeout" << YAML::Value << re.timeout;
  out << YAML::Key << "backoff" << YAML::Value << Num(re.backoff);
  out << YAML::Key << "backoff_max" << YAML::Value << Num(re.backoff_max);
  if (!re.unless_exit.empty()) {
    out << YAML::Key << "unless_exit" << YAML::Value << YAML::Flow
        << re.unless_exit;
  }
  out << YAML::EndMap;
  if (!rt.timeout.empty()) {
    out << YAML::Key << "timeout" << YAML::Value << YAML::BeginMap;
    for (const auto& [op, seconds] : rt.timeout) {
      out << YAML::Key << op << YAML::Value << Num(seconds);
    }
    out << YAML::EndMap;
  }
  out << YAML::Key << "replication" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "mode" << YAML::Value
      << std::string(ReplicationModeName(rt.replication.mode));
  out << YAML::Key << "threshold" << YAML::Value << rt.replication.threshold;
  if (rt.replication.cap > 0)
    out << YAML::Key << "cap" << YAML::Value << rt.replication.cap;
  out << YAML::EndMap;
  out << YAML::Key << "rank" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "alpha" << YAML::Value << Num(rt.rank.alpha);
  out << YAML::Key << "beta" << YAML::Value << Num(rt.rank.beta);
  out << YAML::Key << "mu" << YAML::Value << Num(rt.rank.mu);
  out << YAML::Key << "gamma" << YAML::Value << Num(rt.rank.gamma);
  out << YAML::EndMap;
  out << YAML::Key << "heartbeat" << YAML::Value << Num(rt.heartbeat);
  out << YAML::Key << "stall_timeout" << YAML::Value << Num(rt.stall_timeout);
  out << YAML::Key << "connect_parallel" << YAML::Value << rt.connect_parallel;
  out << YAML::Key << "keep_failed" << YAML::Value << Num(rt.keep_failed);
  out << YAML::Key << "progress" << YAML::Value
      << std::string(ProgressModeName(rt.progress));
  out << YAML::Key << "workers" << YAML::Value
      << std::string(WorkerModeName(rt.workers));
  out << YAML::Key << "worker_max_jobs" << YAML::Value << rt.worker_max_jobs;
  out << YAML::Key << "worker_max_memory" << YAML::Value
      << rt.worker_max_memory;
  out << YAML::Key << "reuse" << YAML::Value << rt.reuse;
  // In bytes: the reader takes a plain number as bytes.
  out << YAML::Key << "reuse_limit" << YAML::Value
      << std::to_string(rt.reuse_limit);
  if (!rt.never_reuse.empty()) {
    out << YAML::Key << "never_reuse" << YAML::Value << YAML::Flow
        << rt.never_reuse;
  }
  if (!rt.hosts.empty()) {
    out << YAML::Key << "hosts" << YAML::Value << YAML::BeginMap;
    for (const auto& [op, labels] : rt.hosts) {
      out << YAML::Key << op << YAML::Value << YAML::Flow << labels;
    }
    out << YAML::EndMap;
  }
  out << YAML::EndMap;
}

void EmitHost(YAML::Emitter& out, const HostConfig& h) {
  const HostConfig def;
  const BatchConfig& b = h.batch;
  out << YAML::BeginMap;
  out << YAML::Key << "name" << YAML::Value << h.name;
  out << YAML::Key << "adapter" << YAML::Value;
  if (h.adapters.size() == 1) {
    out << std::string(AdapterKindName(h.adapters[0]));
  } else {
    out << YAML::Flow << YAML::BeginSeq;
    for (AdapterKind k : h.adapters) out << std::string(AdapterKindName(k));
    out << YAML::EndSeq;
  }
  // Only keys that differ from their defaults, so that a key that does not
  // apply to the host's adapter is never written.
  auto str = [&](const char* key, const std::string& value) {
    if (!value.empty()) out << YAML::Key << key << YAML::Value << value;
  };
  str("address", h.address);
  if (h.port != def.port) out << YAML::Key << "port" << YAML::Value << h.port;
  str("user", h.user);
  str("identity", h.identity);
  str("known_hosts", h.known_hosts);
  if (h.host_key_check != def.host_key_check) {
    out << YAML::Key << "host_key_check" << YAML::Value
        << std::string(HostKeyCheckName(h.host_key_check));
  }
  if (h.slots > 0) out << YAML::Key << "slots" << YAML::Value << h.slots;
  if (h.prefetch >= 0) {
    out << YAML::Key << "prefetch" << YAML::Value << h.prefetch;
  }
  if (h.prefetch_window >= 0) {
    out << YAML::Key << "prefetch_window" << YAML::Value << h.prefetch_window;
  }
  if (h.memory_gb > 0) {
    out << YAML::Key << "memory" << YAML::Value << h.memory_gb;
  }
  str("workdir", h.workdir);
  if (h.shared_fs) out << YAML::Key << "shared_fs" << YAML::Value << true;
  EmitStringMap(out, "env", h.env);
  if (!h.setup.empty()) {
    out << YAML::Key << "setup" << YAML::Value << h.setup;
  }
  if (!h.launcher.empty()) {
    out << YAML::Key << "launcher" << YAML::Value << YAML::Flow << h.launcher;
  }
  if (!h.labels.empty()) {
    out << YAML::Key << "labels" << YAML::Value << YAML::Flow << h.labels;
  }
  if (h.gpus)
    out << YAML::Key << "gpus" << YAML::Value << YAML::Flow << *h.gpus;
  str("partition", b.partition);
  str("account", b.account);
  str("qos", b.qos);
  if (b.walltime > 0) {
    out << YAML::Key << "walltime" << YAML::Value << FormatWalltime(b.walltime);
  }
  if (b.cpus_per_task != def.batch.cpus_per_task) {
    out << YAML::Key << "cpus_per_task" << YAML::Value << b.cpus_per_task;
  }
  if (b.mem_mb > 0) {
    out << YAML::Key << "mem" << YAML::Value << std::to_string(b.mem_mb) + "M";
  }
  if (b.max_jobs > 0) {
    out << YAML::Key << "max_jobs" << YAML::Value << b.max_jobs;
  }
  if (b.mode != def.batch.mode) {
    out << YAML::Key << "mode" << YAML::Value
        << std::string(BatchModeName(b.mode));
  }
  if (b.pilots != def.batch.pilots) {
    out << YAML::Key << "pilots" << YAML::Value << b.pilots;
  }
  if (b.max_pilots > 0) {
    out << YAML::Key << "max_pilots" << YAML::Value << b.max_pilots;
  }
  if (b.pilot_linger != def.batch.pilot_linger) {
    out << YAML::Key << "pilot_linger" << YAML::Value << b.pilot_linger;
  }
  if (b.pilot_reattach != def.batch.pilot_reattach) {
    out << YAML::Key << "pilot_reattach" << YAML::Value << b.pilot_reattach;
  }
  if (!b.extra.empty()) {
    out << YAML::Key << "batch_options" << YAML::Value << YAML::Flow << b.extra;
  }
  str("via", b.via);
  str("listen", b.listen);
  EmitStringMap(out, "sim", h.sim);
  out << YAML::EndMap;
}

}  // namespace

std::string ConfigToYaml(const Config& config) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  EmitRuntime(out, config.runtime);
  const HostEnvironment& d = config.host_defaults;
  if (d != HostEnvironment{}) {
    out << YAML::Key << "host_defaults" << YAML::Value << YAML::BeginMap;
    EmitStringMap(out, "env", d.env);
    if (!d.setup.empty()) out << YAML::Key << "setup" << YAML::Value << d.setup;
    if (!d.launcher.empty()) {
      out << YAML::Key << "launcher" << YAML::Value << YAML::Flow << d.launcher;
    }
    out << YAML::EndMap;
  }
  out << YAML::Key << "hosts" << YAML::Value << YAML::BeginSeq;
  for (const HostConfig& h : config.hosts) EmitHost(out, h);
  out << YAML::EndSeq;
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

}  // namespace gs
