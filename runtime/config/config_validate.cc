#include "runtime/config/config_validate.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

namespace gs {
namespace {

const std::vector<std::string_view> kCommonHostKeys = {
    "name",    "adapter",   "slots", "memory",
    "workdir", "shared_fs", "env",   "labels"};
const std::vector<std::string_view> kGpuKeys = {"gpus"};
const std::vector<std::string_view> kSshKeys = {
    "address",     "port",           "user",     "identity",
    "known_hosts", "host_key_check", "prefetch", "prefetch_window"};
const std::vector<std::string_view> kBatchKeys = {
    "partition",    "account",  "qos",  "walltime", "cpus_per_task",
    "mem",          "max_jobs", "mode", "pilots",   "max_pilots",
    "pilot_linger", "extra",    "via",  "listen",   "pilot_reattach",
    "batch_options"};
const std::vector<std::string_view> kSimKeys = {"sim"};
// What real hosts start their programs in; a simulated host starts none.
const std::vector<std::string_view> kEnvironmentKeys = {"setup", "launcher"};

std::vector<std::string_view> Concat(
    std::initializer_list<const std::vector<std::string_view>*> lists) {
  std::vector<std::string_view> out;
  for (const auto* l : lists) out.insert(out.end(), l->begin(), l->end());
  return out;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), ::tolower);
  return out;
}

// Edits (insert, delete, substitute, swap two neighbours) from a to b.
size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<std::vector<size_t>> d(a.size() + 1,
                                     std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] =
          std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

std::string JoinNames(const std::vector<std::string_view>& names) {
  std::string out;
  for (std::string_view n : names) {
    if (!out.empty()) out += ", ";
    out += n;
  }
  return out;
}

// Collects messages, each prefixed with the place and the key.
class Problems {
 public:
  Problems(const Config& config, const std::vector<std::string>& unread)
      : config_(config), unread_(unread) {}

  void Add(const std::string& path, std::string_view msg) {
    if (AboutUnread(path)) return;
    std::string text = config_.source.Where(path);
    if (!path.empty()) text += DescribeKey(path, config_) + ": ";
    text += msg;
    list_.push_back(std::move(text));
  }

  Status ToStatus() const {
    if (list_.empty()) return Status::Ok();
    std::string msg;
    for (const std::string& p : list_) {
      if (!msg.empty()) msg += "\n";
      msg += p;
    }
    return Status::InvalidArgument(msg);
  }

 private:
  // A key that could not be read has its default: a rule it breaks now
  // says nothing new. A host whose adapter could not be read is not judged
  // at all (which keys apply depends on it).
  bool AboutUnread(std::string_view path) const {
    for (std::string_view u : unread_) {
      if (path.starts_with(u) || u.starts_with(path)) return true;
      if (u.ends_with(".adapter") || u.ends_with(".adapters")) {
        std::string_view host = u.substr(0, u.rfind('.'));
        if (path.starts_with(host)) return true;
      }
    }
    return false;
  }

  const Config& config_;
  const std::vector<std::string>& unread_;
  std::vector<std::string> list_;
};

void ValidateRuntime(const RuntimeConfig& rt, Problems& problems) {
  const auto& policies = KnownPolicies();
  if (std::find(policies.begin(), policies.end(), rt.policy) ==
      policies.end()) {
    std::vector<std::string_view> names(policies.begin(), policies.end());
    std::string hint = DidYouMean(rt.policy, names);
    if (hint.empty()) hint = "; known policies: " + JoinNames(names);
    problems.Add("runtime.policy", "unknown policy '" + rt.policy + "'" + hint);
  }
  if (rt.work_dir.empty()) {
    problems.Add("runtime.work_dir", "expected a directory, got nothing");
  }
  const RetryBudgets& re = rt.retries;
  if (re.app < 0 || re.infra < 0 || re.timeout < 0) {
    problems.Add("runtime.retries", "retry counts must be 0 or more");
  }
  if (!(re.backoff >= 0)) {
    problems.Add("runtime.retries.backoff", "expected 0 seconds or more");
  }
  if (!(re.backoff_max >= re.backoff)) {
    problems.Add("runtime.retries.backoff_max",
                 "is smaller than backoff; make it at least backoff");
  }
  for (int code : re.unless_exit) {
    if (code < 0 || code > 255) {
      problems.Add("runtime.retries.unless_exit",
                   "exit codes are 0-255, got " + std::to_string(code));
    }
  }
  for (const auto& [op, seconds] : rt.timeout) {
    std::string path = "runtime.timeout." + op;
    if (!IsIdentifier(op)) {
      problems.Add(path,
                   "is not an operation name (letters, digits and '_' as in "
                   "the IDL file)");
    }
    if (!(seconds > 0)) problems.Add(path, "expected seconds greater than 0");
  }
  if (rt.replication.threshold < 1) {
    problems.Add("runtime.replication.threshold",
                 "expected a positive integer (1 or more)");
  }
  const RankWeights& w = rt.rank;
  for (auto [name, value] : {std::pair{"alpha", w.alpha},
                             {"beta", w.beta},
                             {"mu", w.mu},
                             {"gamma", w.gamma}}) {
    if (!(value >= 0) || !std::isfinite(value)) {
      problems.Add(std::string("runtime.rank.") + name,
                   "expected a number (0 or more)");
    }
  }
  if (!(rt.heartbeat > 0)) {
    problems.Add("runtime.heartbeat", "expected seconds greater than 0");
  }
}

// The keys a host sets: written in the file, or (for configs built in
// code) different from the default.
std::set<std::string> SetKeys(const HostConfig& h, const std::string& prefix,
                              const ConfigSource& source) {
  std::set<std::string> keys;
  for (auto it = source.marks.lower_bound(prefix);
       it != source.marks.end() && it->first.starts_with(prefix); ++it) {
    std::string key = it->first.substr(prefix.size());
    key = key.substr(0, key.find_first_of(".["));
    keys.insert(key);
  }
  const HostConfig def;
  const BatchConfig& b = h.batch;
  const BatchConfig& d = def.batch;
  std::pair<const char*, bool> differs[] = {
      {"address", !h.address.empty()},
      {"port", h.port != def.port},
      {"user", !h.user.empty()},
      {"identity", !h.identity.empty()},
      {"known_hosts", !h.known_hosts.empty()},
      {"host_key_check", h.host_key_check != def.host_key_check},
      {"partition", !b.partition.empty()},
      {"account", !b.account.empty()},
      {"qos", !b.qos.empty()},
      {"walltime", b.walltime != d.walltime},
      {"cpus_per_task", b.cpus_per_task != d.cpus_per_task},
      {"mem", b.mem_mb != d.mem_mb},
      {"max_jobs", b.max_jobs != d.max_jobs},
      {"mode", b.mode != d.mode},
      {"pilots", b.pilots != d.pilots},
      {"max_pilots", b.max_pilots != d.max_pilots},
      {"pilot_linger", b.pilot_linger != d.pilot_linger},
      {"pilot_reattach", b.pilot_reattach != d.pilot_reattach},
      {"extra", !b.extra.empty()},
      {"labels", !h.labels.empty()},
      {"setup", !h.setup.empty()},
      {"launcher", !h.launcher.empty()},
      {"gpus", h.gpus.has_value()},
      {"via", !b.via.empty()},
      {"listen", !b.listen.empty()},
      {"sim", !h.sim.empty()}};
  for (auto [key, set] : differs) {
    if (set) keys.insert(key);
  }
  return keys;
}

void ValidateHostKeys(const HostConfig& h, const std::string& path,
                      const Config& config, Problems& problems) {
  std::set<std::string_view> allowed;
  for (AdapterKind kind : h.adapters) {
    for (std::string_view k : HostKeysFor(kind)) allowed.insert(k);
  }
  for (const std::string& key : SetKeys(h, path + ".", config.source)) {
    if (allowed.count(key) || h.adapters.empty()) continue;
    std::vector<std::string_view> kinds;
    for (AdapterKind kind :
         {AdapterKind::kLocal, AdapterKind::kSsh, AdapterKind::kSlurm,
          AdapterKind::kPbs, AdapterKind::kSim}) {
      const auto& keys = HostKeysFor(kind);
      if (std::find(keys.begin(), keys.end(), key) != keys.end()) {
        kinds.push_back(AdapterKindName(kind));
      }
    }
    std::vector<std::string_view> used;
    for (AdapterKind kind : h.adapters) used.push_back(AdapterKindName(kind));
    problems.Add(path + "." + key, "does not apply to adapter " +
                                       JoinNames(used) + " (it is for " +
                                       JoinNames(kinds) +
                                       "); remove it or change the adapter");
  }
}

// `env`, `setup` and `launcher` of a host or of host_defaults: what can be
// passed to a shell and to exec.
void ValidateEnvironment(const std::map<std::string, std::string>& env,
                         const std::vector<std::string>& setup,
                         const std::vector<std::string>& launcher,
                         const std::string& path, Problems& problems) {
  for (const auto& [name, value] : env) {
    if (!IsIdentifier(name)) {
      problems.Add(path + ".env." + name,
                   "is not an environment variable name (letters, digits "
                   "and '_', not starting with a digit)");
    } else if (value.find('\0') != std::string::npos) {
      problems.Add(path + ".env." + name, "holds a NUL byte");
    }
  }
  auto check_words = [&](const std::vector<std::string>& words,
                         const std::string& key, const char* what) {
    for (size_t i = 0; i < words.size(); ++i) {
      const std::string at = path + "." + key + "[" + std::to_string(i) + "]";
      if (words[i].find('\0') != std::string::npos) {
        problems.Add(at, "holds a NUL byte");
      } else if (words[i].find_first_not_of(" \t\n") == std::string::npos) {
        problems.Add(at, std::string("is empty; give ") + what);
      }
    }
  };
  check_words(setup, "setup", "a shell line such as 'module load gcc'");
  check_words(launcher, "launcher",
              "a word of the command, such as 'apptainer'");
}

void ValidateHost(const HostConfig& h, size_t index, const Config& config,
                  Problems& problems) {
  std::string path = "hosts[" + std::to_string(index) + "]";
  if (h.name.empty()) {
    problems.Add(path, "missing required key 'name'; add e.g. 'name: node1'");
  } else if (!IsValidHostName(h.name)) {
    problems.Add(path + ".name",
                 "'" + h.name +
                     "' is not a valid host name; use letters, digits, '.', "
                     "'_' and '-'");
  }
  if (h.adapters.empty()) {
    problems.Add(path,
                 "missing required key 'adapter'; add e.g. 'adapter: ssh' "
                 "(one of local, ssh, slurm, pbs, sim)");
  }
  std::set<AdapterKind> kinds;
  for (AdapterKind kind : h.adapters) {
    if (!kinds.insert(kind).second) {
      problems.Add(path + ".adapter", "lists adapter '" +
                                          std::string(AdapterKindName(kind)) +
                                          "' twice; list each once");
    }
  }
  if (h.Uses(AdapterKind::kSsh) && h.address.empty()) {
    problems.Add(path,
                 "missing required key 'address' for adapter ssh; add the "
                 "host name or IP address, e.g. 'address: 10.0.0.5'");
  }
  ValidateHostKeys(h, path, config, problems);
  if (h.slots < 1 && !h.SlotsFromPilots() && !h.SlotsFromNodes()) {
    problems.Add(path + ".slots", "expected a positive integer (1 or more)");
  }
  if (h.port < 1 || h.port > 65535) {
    problems.Add(path + ".port", "expected a port number (1-65535)");
  }
  for (size_t i = 0; i < h.labels.size(); ++i) {
    if (!IsValidHostName(h.labels[i])) {
      problems.Add(path + ".labels[" + std::to_string(i) + "]",
                   "'" + h.labels[i] +
                       "' is not a valid label; use letters, digits, '.', "
                       "'_' and '-'");
    }
  }
  if (h.gpus) {
    std::set<std::string> seen;
    for (size_t i = 0; i < h.gpus->size(); ++i) {
      const std::string& id = (*h.gpus)[i];
      const std::string at = path + ".gpus[" + std::to_string(i) + "]";
      if (id.empty() || id.find_first_of(", \t\n") != std::string::npos) {
        problems.Add(at, "'" + id +
                             "' is not a device id (a number such as 0, or a "
                             "UUID such as GPU-8e1f...; no commas or blanks)");
      } else if (!seen.insert(id).second) {
        problems.Add(at, "device '" + id + "' is listed twice");
      }
    }
  }
  if (h.gpus && !h.gpus->empty() && h.batch.mode == BatchMode::kPilot &&
      (h.Uses(AdapterKind::kSlurm) || h.Uses(AdapterKind::kPbs))) {
    problems.Add(path + ".gpus",
                 "pilots offer the GPUs of their allocations: ask the queue "
                 "for them in batch_options (e.g. [--gres=gpu:2]) and leave "
                 "`gpus` out");
  }
  ValidateEnvironment(h.env, h.setup, h.launcher, path, problems);
  if (h.batch.mode == BatchMode::kAllocation) {
    if (h.Uses(AdapterKind::kPbs)) {
      problems.Add(path + ".mode",
                   "'allocation' is for slurm hosts: PBS has no srun to "
                   "start an agent on each node with a channel back (pbsdsh "
                   "gives none); use mode: pilot");
    }
    if (!h.batch.via.empty()) {
      problems.Add(path + ".via",
                   "does not apply with 'mode: allocation': the master runs "
                   "inside the allocation, on its first node");
    }
    if (h.gpus && !h.gpus->empty()) {
      problems.Add(path + ".gpus",
                   "does not apply with 'mode: allocation': each node's agent "
                   "offers the GPUs the allocation holds there (salloc "
                   "--gres=gpu:k); leave it out");
    }
  }
  const BatchConfig& b = h.batch;
  const BatchConfig d;
  if (b.cpus_per_task < 1) {
    problems.Add(path + ".cpus_per_task", "expected a positive integer");
  }
  if (b.pilots < 1) {
    problems.Add(path + ".pilots", "expected a positive integer");
  } else if (b.pilots != 1 && b.mode != BatchMode::kPilot) {
    problems.Add(path + ".pilots", "applies only with 'mode: pilot'");
  } else if (b.mode == BatchMode::kPilot && b.pilots > h.slots && h.slots > 0) {
    problems.Add(path + ".pilots",
                 "is " + std::to_string(b.pilots) + " but slots is only " +
                     std::to_string(h.slots) +
                     "; each pilot needs a slot, so raise slots or lower "
                     "pilots");
  }
  if (b.max_pilots != d.max_pilots && b.mode != BatchMode::kPilot) {
    problems.Add(path + ".max_pilots", "applies only with 'mode: pilot'");
  } else if (b.max_pilots != d.max_pilots && b.max_pilots < b.pilots) {
    problems.Add(path + ".max_pilots",
                 "is " + std::to_string(b.max_pilots) + " but pilots is " +
                     std::to_string(b.pilots) +
                     "; pilots is the floor, so raise max_pilots or lower "
                     "pilots");
  } else if (b.max_pilots > b.pilots && !h.SlotsFromPilots()) {
    problems.Add(path + ".max_pilots",
                 "needs pilots sized by their allocations; remove 'slots' "
                 "(each pilot then runs as many jobs as its allocation has "
                 "CPUs)");
  } else if (b.max_pilots > b.pilots && b.max_jobs > 0 &&
             b.max_jobs < b.max_pilots) {
    problems.Add(path + ".max_pilots",
                 "is " + std::to_string(b.max_pilots) + " but max_jobs is " +
                     std::to_string(b.max_jobs) +
                     "; the host never holds more batch jobs than max_jobs, "
                     "so lower max_pilots or raise max_jobs");
  }
  if (b.pilot_linger != d.pilot_linger && b.mode != BatchMode::kPilot) {
    problems.Add(path + ".pilot_linger", "applies only with 'mode: pilot'");
  }
  if (b.pilot_reattach != d.pilot_reattach && b.mode != BatchMode::kPilot) {
    problems.Add(path + ".pilot_reattach", "applies only with 'mode: pilot'");
  }
  if (b.max_jobs < 0 || b.mem_mb < 0 || b.walltime < 0) {
    problems.Add(path, "batch limits must not be negative");
  }
  if (!b.via.empty()) {
    const HostConfig* via = config.FindHost(b.via);
    if (b.via == h.name) {
      problems.Add(path + ".via", "names the host itself; name an ssh host");
    } else if (via == nullptr) {
      problems.Add(path + ".via",
                   "names no host of this file ('" + b.via +
                       "'); add an ssh host of that name (the login node)");
    } else if (!via->Uses(AdapterKind::kSsh)) {
      problems.Add(path + ".via", "names host '" + b.via +
                                      "', which does not use adapter ssh");
    }
  }
}

// runtime.hosts: each operation's labels name some host (by a label or its
// name), so a restriction never leaves an operation nowhere to run.
void ValidatePlacement(const Config& config, Problems& problems) {
  std::set<std::string> labels, names;
  for (const HostConfig& h : config.hosts) {
    labels.insert(h.labels.begin(), h.labels.end());
    names.insert(h.name);
  }
  std::vector<std::string_view> known(labels.begin(), labels.end());
  known.insert(known.end(), names.begin(), names.end());
  auto joined = [](const std::set<std::string>& set) {
    return set.empty() ? std::string("none")
                       : JoinNames({set.begin(), set.end()});
  };
  for (const auto& [op, wanted] : config.runtime.hosts) {
    std::string path = "runtime.hosts." + op;
    if (!IsIdentifier(op)) {
      problems.Add(path,
                   "is not an operation name (letters, digits and '_' as in "
                   "the IDL file)");
    }
    if (wanted.empty()) {
      problems.Add(path,
                   "lists no label; name at least one (a host's label or "
                   "name), or remove the key to run the operation anywhere");
    }
    for (size_t i = 0; i < wanted.size(); ++i) {
      if (labels.count(wanted[i]) || names.count(wanted[i])) continue;
      problems.Add(path + "[" + std::to_string(i) + "]",
                   "no host has label '" + wanted[i] + "', so operation '" +
                       op + "' could not run there; labels: " + joined(labels) +
                       "; hosts: " + joined(names) +
                       DidYouMean(wanted[i], known));
    }
  }
}

}  // namespace

const std::vector<std::string>& KnownPolicies() {
  static const std::vector<std::string> kPolicies = [] {
    std::vector<std::string> p = {
        "met",   "mct",   "min-min", "sufferage", "min-min-ls", "sufferage-ls",
        "ftmet", "ftmct", "wqr",     "wqr-ft",    "wqdr-ft",    "ip",
        "ie",    "iy",    "iay",     "grank",     "gtp"};
    // Proactive heuristics C-H of paper 002: criterion C in {P, E, Y} on top
    // of a passive heuristic H.
    for (const char* c : {"p", "e", "y"}) {
      for (const char* h : {"ip", "ie", "iy", "iay"}) {
        p.push_back(std::string(c) + "-" + h);
      }
    }
    return p;
  }();
  return kPolicies;
}

const std::vector<std::string_view>& HostKeysFor(AdapterKind kind) {
  static const auto kLocal =
      Concat({&kCommonHostKeys, &kEnvironmentKeys, &kGpuKeys});
  static const auto kSsh =
      Concat({&kCommonHostKeys, &kEnvironmentKeys, &kSshKeys, &kGpuKeys});
  static const auto kBatch =
      Concat({&kCommonHostKeys, &kEnvironmentKeys, &kBatchKeys, &kGpuKeys});
  static const auto kSim = Concat({&kCommonHostKeys, &kSimKeys, &kGpuKeys});
  switch (kind) {
    case AdapterKind::kLocal:
      return kLocal;
    case AdapterKind::kSsh:
      return kSsh;
    case AdapterKind::kSlurm:
    case AdapterKind::kPbs:
      return kBatch;
    case AdapterKind::kSim:
      return kSim;
  }
  return kLocal;
}

const std::vector<std::string_view>& AllHostKeys() {
  static const auto kAll =
      Concat({&kCommonHostKeys, &kEnvironmentKeys, &kSshKeys, &kBatchKeys,
              &kSimKeys, &kGpuKeys});
  return kAll;
}

std::string ClosestName(std::string_view word,
                        const std::vector<std::string_view>& candidates) {
  std::string w = Lower(word);
  size_t best = SIZE_MAX;
  std::string_view best_name;
  for (std::string_view c : candidates) {
    size_t d = EditDistance(w, Lower(c));
    if (d < best) {
      best = d;
      best_name = c;
    }
  }
  // One edit for short words, two for longer ones; never a whole rewrite.
  size_t limit = w.size() <= 4 ? 1 : 2;
  if (best > limit || best >= w.size()) return "";
  return std::string(best_name);
}

std::string DidYouMean(std::string_view word,
                       const std::vector<std::string_view>& candidates) {
  std::string name = ClosestName(word, candidates);
  return name.empty() ? "" : "; did you mean '" + name + "'?";
}

std::string DescribeKey(std::string_view path, const Config& config) {
  constexpr std::string_view kHosts = "hosts[";
  if (!path.starts_with(kHosts)) return "key '" + std::string(path) + "'";
  size_t close = path.find(']');
  if (close == std::string_view::npos) return "key '" + std::string(path) + "'";
  std::string who(path.substr(0, close + 1));
  size_t index = std::strtoul(who.c_str() + kHosts.size(), nullptr, 10);
  if (index < config.hosts.size() && !config.hosts[index].name.empty()) {
    who = "host '" + config.hosts[index].name + "'";
  }
  std::string_view rest = path.substr(close + 1);
  if (rest.starts_with(".")) rest.remove_prefix(1);
  if (rest.empty()) return who;
  return who + ", key '" + std::string(rest) + "'";
}

bool IsValidHostName(std::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  if (!std::isalnum(static_cast<unsigned char>(name[0]))) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' ||
           c == '_' || c == '-';
  });
}

bool IsIdentifier(std::string_view name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) {
    return false;
  }
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

Status ValidateConfig(const Config& config,
                      const std::vector<std::string>& unread) {
  Problems problems(config, unread);
  ValidateRuntime(config.runtime, problems);
  ValidatePlacement(config, problems);
  const HostEnvironment& d = config.host_defaults;
  ValidateEnvironment(d.env, d.setup, d.launcher, "host_defaults", problems);
  if (config.hosts.empty()) {
    problems.Add("hosts", "no host to run jobs on; list at least one");
  }
  std::map<std::string, size_t> first_index;
  for (size_t i = 0; i < config.hosts.size(); ++i) {
    const HostConfig& h = config.hosts[i];
    ValidateHost(h, i, config, problems);
    if (h.name.empty()) continue;
    auto [it, inserted] = first_index.emplace(h.name, i);
    if (!inserted) {
      std::string first = "hosts[" + std::to_string(it->second) + "]";
      std::string where = config.source.Where(first);
      problems.Add(
          "hosts[" + std::to_string(i) + "].name",
          "host name '" + h.name + "' is already used" +
              (where.empty() ? ""
                             : " at " + where.substr(0, where.size() - 2)) +
              "; host names must be unique");
    }
  }
  return problems.ToStatus();
}

}  // namespace gs
