#include "runtime/config/config_yaml.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <functional>
#include <set>
#include <span>
#include <sstream>
#include <utility>
#include <vector>

#include "runtime/base/units.h"
#include "runtime/config/config_validate.h"

namespace gs {
namespace {

constexpr std::string_view kPasswordMessage =
    "passwords are not accepted in config files; use identity (a private key "
    "file) or ssh-agent, and remove this key";

SourceMark ToMark(const YAML::Mark& mark) {
  if (mark.is_null()) return {};
  return {mark.line + 1, mark.column + 1};
}

std::string Quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

// What a node holds, for the "got ..." part of messages.
std::string Shown(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Null:
      return "nothing";
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Map:
      return "a mapping";
    case YAML::NodeType::Scalar: {
      std::string s = node.Scalar();
      if (s.size() > 40) s = s.substr(0, 37) + "...";
      return Quoted(s);
    }
    default:
      return "nothing";
  }
}

std::string Join(std::span<const std::string_view> names) {
  std::string out;
  for (std::string_view n : names) {
    if (!out.empty()) out += ", ";
    out += n;
  }
  return out;
}

template <typename E>
struct EnumName {
  std::string_view name;
  E value;
};

constexpr EnumName<AdapterKind> kAdapterNames[] = {
    {"local", AdapterKind::kLocal},
    {"ssh", AdapterKind::kSsh},
    {"slurm", AdapterKind::kSlurm},
    {"pbs", AdapterKind::kPbs},
    {"sim", AdapterKind::kSim}};
constexpr EnumName<HostKeyCheck> kHostKeyCheckNames[] = {
    {"strict", HostKeyCheck::kStrict},
    {"accept-new", HostKeyCheck::kAcceptNew}};
constexpr EnumName<BatchMode> kBatchModeNames[] = {
    {"job", BatchMode::kJob},
    {"pilot", BatchMode::kPilot},
    {"allocation", BatchMode::kAllocation}};
constexpr EnumName<ReplicationMode> kReplicationNames[] = {
    {"off", ReplicationMode::kOff},
    {"fixed", ReplicationMode::kFixed},
    {"dynamic", ReplicationMode::kDynamic}};
constexpr EnumName<WorkerMode> kWorkerModeNames[] = {
    {"persistent", WorkerMode::kPersistent},
    {"process", WorkerMode::kProcess},
    {"fork", WorkerMode::kFork}};
constexpr EnumName<ProgressMode> kProgressNames[] = {
    {"auto", ProgressMode::kAuto},
    {"always", ProgressMode::kAlways},
    {"never", ProgressMode::kNever}};

const std::vector<std::string_view> kTopKeys = {"runtime", "host_defaults",
                                                "hosts"};

class Parser {
 public:
  explicit Parser(std::string_view name) {
    config_.source.name = std::string(name);
  }

  ParsedYaml Parse(std::string_view text);

 private:
  using Reader = std::function<void(const YAML::Node&, const std::string&)>;
  struct Key {
    std::string_view name;
    Reader read;
  };

  void FailAt(SourceMark mark, const std::string& path, std::string_view msg);
  // At the node's own place, or at its key when the node has none (a
  // missing value).
  void Fail(const YAML::Node& node, const std::string& path,
            std::string_view msg);

  // Reads a mapping whose keys are fixed names.
  void ReadMap(const YAML::Node& map, const std::string& path,
               const std::vector<Key>& keys);
  // Reads a mapping whose keys are the user's (operation names, variables).
  void ReadFreeMap(
      const YAML::Node& map, const std::string& path,
      const std::function<void(const std::string& key, const YAML::Node& value,
                               const std::string& child)>& read);

  bool GetString(const YAML::Node& node, const std::string& path,
                 std::string* out);
  bool GetInt(const YAML::Node& node, const std::string& path, int64_t min,
              int64_t max, std::string_view expected, int64_t* out);
  template <typename T>
  Reader Int(T* out, int64_t min, int64_t max, std::string_view expected);
  Reader PositiveInt(int* out) {
    return Int(out, 1, 1 << 20, "a positive integer (1 or more)");
  }
  Reader Number(double* out, double min, bool allow_min,
                std::string_view expected);
  Reader String(std::string* out);
  Reader Bool(bool* out);
  template <typename E, size_t N>
  Reader Enum(E* out, const EnumName<E> (&names)[N]);
  Reader StringMap(std::map<std::string, std::string>* out);
  // A list of strings, or one string for a list of one; `what` says what
  // they are in the error ("operation names such as [stamp]").
  Reader StringList(std::vector<std::string>* out, std::string what);
  // Arguments for sbatch/qsub: a list, or one string split on blanks.
  Reader BatchOptions(std::vector<std::string>* out);

  void ReadRuntime(const YAML::Node& node, const std::string& path);
  void ReadHosts(const YAML::Node& node, const std::string& path);
  void ReadHostEnvironment(const YAML::Node& node, const std::string& path);
  void ReadHost(const YAML::Node& node, const std::string& path);
  void ReadAdapters(const YAML::Node& node, const std::string& path,
                    std::vector<AdapterKind>* out);

  // The result so far: only a syntax error makes it unusable.
  ParsedYaml Result(bool usable) {
    ParsedYaml out;
    out.usable = usable;
    out.errors = std::move(errors_);
    out.failed_paths = std::move(failed_paths_);
    if (usable) out.config = std::move(config_);
    return out;
  }

  Config config_;
  std::vector<std::string> errors_;
  std::vector<std::string> failed_paths_;
};

void Parser::FailAt(SourceMark mark, const std::string& path,
                    std::string_view msg) {
  std::string where = config_.source.name;
  if (mark.line > 0) {
    where +=
        ":" + std::to_string(mark.line) + ":" + std::to_string(mark.column);
  }
  std::string text = where + ": ";
  if (!path.empty()) text += DescribeKey(path, config_) + ": ";
  text += msg;
  errors_.push_back(std::move(text));
  if (!path.empty()) failed_paths_.push_back(path);
}

void Parser::Fail(const YAML::Node& node, const std::string& path,
                  std::string_view msg) {
  SourceMark mark = node.IsNull() ? SourceMark{} : ToMark(node.Mark());
  if (mark.line == 0) {
    auto it = config_.source.marks.find(path);
    if (it != config_.source.marks.end()) mark = it->second;
  }
  FailAt(mark, path, msg);
}

void Parser::ReadMap(const YAML::Node& map, const std::string& path,
                     const std::vector<Key>& keys) {
  if (!map.IsMap()) {
    Fail(map, path,
         "expected a mapping (indented 'key: value' lines), got " + Shown(map));
    return;
  }
  std::vector<std::string_view> names;
  for (const Key& k : keys) names.push_back(k.name);
  std::set<std::string> seen;
  for (const auto& entry : map) {
    SourceMark mark = ToMark(entry.first.Mark());
    if (!entry.first.IsScalar()) {
      FailAt(mark, path, "keys must be plain names");
      continue;
    }
    const std::string& name = entry.first.Scalar();
    std::string child = path.empty() ? name : path + "." + name;
    if (!seen.insert(name).second) {
      int first = config_.source.marks[child].line;
      FailAt(mark, child,
             "given twice (first on line " + std::to_string(first) +
                 "); keep one");
      continue;
    }
    config_.source.marks[child] = mark;
    std::string lower = name;
    std::transform(lower.begin(), lower.end(), lower.begin(), ::tolower);
    if (lower == "password" || lower == "passphrase") {
      FailAt(mark, child, kPasswordMessage);
      continue;
    }
    auto it = std::find_if(keys.begin(), keys.end(),
                           [&](const Key& k) { return k.name == name; });
    if (it == keys.end()) {
      std::string hint = DidYouMean(name, names);
      if (hint.empty()) hint = "; known keys: " + Join(names);
      FailAt(mark, child, "unknown key" + hint);
      continue;
    }
    it->read(entry.second, child);
  }
}

void Parser::ReadFreeMap(
    const YAML::Node& map, const std::string& path,
    const std::function<void(const std::string&, const YAML::Node&,
                             const std::string&)>& read) {
  if (map.IsNull()) return;  // `env:` with nothing is an empty mapping
  if (!map.IsMap()) {
    Fail(map, path, "expected a mapping of 'name: value', got " + Shown(map));
    return;
  }
  std::set<std::string> seen;
  for (const auto& entry : map) {
    SourceMark mark = ToMark(entry.first.Mark());
    if (!entry.first.IsScalar()) {
      FailAt(mark, path, "keys must be plain names");
      continue;
    }
    const std::string& key = entry.first.Scalar();
    std::string child = path + "." + key;
    if (!seen.insert(key).second) {
      FailAt(mark, child, "given twice; keep one");
      continue;
    }
    config_.source.marks[child] = mark;
    read(key, entry.second, child);
  }
}

bool Parser::GetString(const YAML::Node& node, const std::string& path,
                       std::string* out) {
  if (!node.IsScalar()) {
    Fail(node, path, "expected a string, got " + Shown(node));
    return false;
  }
  *out = node.Scalar();
  return true;
}

bool Parser::GetInt(const YAML::Node& node, const std::string& path,
                    int64_t min, int64_t max, std::string_view expected,
                    int64_t* out) {
  int64_t value = 0;
  bool ok = false;
  if (node.IsScalar()) {
    const std::string& s = node.Scalar();
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    ok = ec == std::errc() && end == s.data() + s.size() && value >= min &&
         value <= max;
  }
  if (!ok) {
    Fail(node, path,
         "expected " + std::string(expected) + ", got " + Shown(node));
    return false;
  }
  *out = value;
  return true;
}

template <typename T>
Parser::Reader Parser::Int(T* out, int64_t min, int64_t max,
                           std::string_view expected) {
  return [this, out, min, max, expected](const YAML::Node& node,
                                         const std::string& path) {
    int64_t value;
    if (GetInt(node, path, min, max, expected, &value)) {
      *out = static_cast<T>(value);
    }
  };
}

Parser::Reader Parser::Number(double* out, double min, bool allow_min,
                              std::string_view expected) {
  return [this, out, min, allow_min, expected](const YAML::Node& node,
                                               const std::string& path) {
    double value = 0;
    bool ok = false;
    if (node.IsScalar()) {
      const std::string& s = node.Scalar();
      auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
      ok = ec == std::errc() && end == s.data() + s.size() &&
           std::isfinite(value) && (value > min || (allow_min && value == min));
    }
    if (!ok) {
      Fail(node, path,
           "expected " + std::string(expected) + ", got " + Shown(node));
      return;
    }
    *out = value;
  };
}

Parser::Reader Parser::String(std::string* out) {
  return [this, out](const YAML::Node& node, const std::string& path) {
    GetString(node, path, out);
  };
}

Parser::Reader Parser::Bool(bool* out) {
  return [this, out](const YAML::Node& node, const std::string& path) {
    std::string s = node.IsScalar() ? node.Scalar() : "";
    std::transform(s.begin(), s.end(), s.begin(), ::tolower);
    if (s == "true" || s == "yes" || s == "on") {
      *out = true;
    } else if (s == "false" || s == "no" || s == "off") {
      *out = false;
    } else {
      Fail(node, path, "expected true or false, got " + Shown(node));
    }
  };
}

template <typename E, size_t N>
Parser::Reader Parser::Enum(E* out, const EnumName<E> (&names)[N]) {
  return [this, out, &names](const YAML::Node& node, const std::string& path) {
    if (node.IsScalar()) {
      for (const auto& n : names) {
        if (n.name == node.Scalar()) {
          *out = n.value;
          return;
        }
      }
    }
    std::vector<std::string_view> all;
    for (const auto& n : names) all.push_back(n.name);
    std::string hint = node.IsScalar() ? DidYouMean(node.Scalar(), all) : "";
    Fail(node, path,
         "expected one of " + Join(all) + ", got " + Shown(node) + hint);
  };
}

Parser::Reader Parser::StringMap(std::map<std::string, std::string>* out) {
  return [this, out](const YAML::Node& node, const std::string& path) {
    ReadFreeMap(node, path,
                [&](const std::string& key, const YAML::Node& value,
                    const std::string& child) {
                  std::string s;
                  if (GetString(value, child, &s)) (*out)[key] = s;
                });
  };
}

Parser::Reader Parser::StringList(std::vector<std::string>* out,
                                  std::string what) {
  return [this, out, what](const YAML::Node& n, const std::string& p) {
    if (n.IsScalar()) {
      std::string one;
      if (GetString(n, p, &one)) out->push_back(one);
      return;
    }
    if (!n.IsSequence()) {
      Fail(n, p, "expected a list of " + what + ", got " + Shown(n));
      return;
    }
    for (size_t i = 0; i < n.size(); ++i) {
      std::string ep = p + "[" + std::to_string(i) + "]";
      config_.source.marks[ep] = ToMark(n[i].Mark());
      std::string item;
      if (GetString(n[i], ep, &item)) out->push_back(item);
    }
  };
}

Parser::Reader Parser::BatchOptions(std::vector<std::string>* out) {
  return [this, out](const YAML::Node& n, const std::string& p) {
    if (n.IsScalar()) {  // one string: split on blanks
      std::istringstream words(n.Scalar());
      for (std::string w; words >> w;) out->push_back(w);
      return;
    }
    StringList(out, "arguments such as [--account=x, --qos=y]")(n, p);
  };
}

void Parser::ReadRuntime(const YAML::Node& node, const std::string& path) {
  RuntimeConfig& rt = config_.runtime;
  RetryBudgets& re = rt.retries;
  constexpr std::string_view kCount = "a non-negative integer";
  constexpr std::string_view kDelay = "a number of seconds (0 or more)";
  constexpr std::string_view kWeight = "a number (0 or more)";
  ReadMap(
      node, path,
      {{"policy",
        [&](const YAML::Node& n, const std::string& p) {
          if (!GetString(n, p, &rt.policy)) return;
          std::transform(rt.policy.begin(), rt.policy.end(), rt.policy.begin(),
                         ::tolower);
        }},
       {"work_dir", String(&rt.work_dir)},
       {"history", String(&rt.history)},
       {"trace", String(&rt.trace)},
       {"dashboard", String(&rt.dashboard)},
       {"retries",
        [&](const YAML::Node& n, const std::string& p) {
          ReadMap(
              n, p,
              {{"app", Int(&re.app, 0, 1000000, kCount)},
               {"infra", Int(&re.infra, 0, 1000000, kCount)},
               {"timeout", Int(&re.timeout, 0, 1000000, kCount)},
               {"backoff", Number(&re.backoff, 0, true, kDelay)},
               {"backoff_max", Number(&re.backoff_max, 0, true, kDelay)},
               {"unless_exit",
                [&](const YAML::Node& list, const std::string& lp) {
                  constexpr std::string_view kCode = "an exit code (0-255)";
                  int64_t code;
                  if (list.IsScalar()) {
                    if (GetInt(list, lp, 0, 255, kCode, &code)) {
                      re.unless_exit.push_back(static_cast<int>(code));
                    }
                    return;
                  }
                  if (!list.IsSequence()) {
                    Fail(list, lp,
                         "expected a list of exit codes such as [3, 4], got " +
                             Shown(list));
                    return;
                  }
                  for (size_t i = 0; i < list.size(); ++i) {
                    std::string ep = lp + "[" + std::to_string(i) + "]";
                    config_.source.marks[ep] = ToMark(list[i].Mark());
                    if (GetInt(list[i], ep, 0, 255, kCode, &code)) {
                      re.unless_exit.push_back(static_cast<int>(code));
                    }
                  }
                }}});
        }},
       {"timeout",
        [&](const YAML::Node& n, const std::string& p) {
          ReadFreeMap(n, p,
                      [&](const std::string& op, const YAML::Node& value,
                          const std::string& child) {
                        double seconds = 0;
                        Number(&seconds, 0, false,
                               "a number of seconds greater than 0")(value,
                                                                     child);
                        if (seconds > 0) rt.timeout[op] = seconds;
                      });
        }},
       {"replication",
        [&](const YAML::Node& n, const std::string& p) {
          ReadMap(n, p,
                  {{"mode", Enum(&rt.replication.mode, kReplicationNames)},
                   {"threshold", PositiveInt(&rt.replication.threshold)},
                   {"cap", PositiveInt(&rt.replication.cap)}});
        }},
       {"rank",
        [&](const YAML::Node& n, const std::string& p) {
          ReadMap(n, p,
                  {{"alpha", Number(&rt.rank.alpha, 0, true, kWeight)},
                   {"beta", Number(&rt.rank.beta, 0, true, kWeight)},
                   {"mu", Number(&rt.rank.mu, 0, true, kWeight)},
                   {"gamma", Number(&rt.rank.gamma, 0, true, kWeight)}});
        }},
       {"heartbeat",
        Number(&rt.heartbeat, 0, false, "a number of seconds greater than 0")},
       {"keep_failed",
        Number(&rt.keep_failed, 0, true, "a number of days, 0 or more")},
       {"stall_timeout",
        Number(&rt.stall_timeout, 0, true, "a number of seconds, 0 or more")},
       {"connect_parallel", PositiveInt(&rt.connect_parallel)},
       {"progress", Enum(&rt.progress, kProgressNames)},
       {"workers", Enum(&rt.workers, kWorkerModeNames)},
       {"worker_max_jobs", PositiveInt(&rt.worker_max_jobs)},
       {"worker_max_memory", Int(&rt.worker_max_memory, 0, 1 << 30,
                                 "a number of MiB (0 for no bound)")},
       {"reuse", Bool(&rt.reuse)},
       {"reuse_limit",
        [&](const YAML::Node& n, const std::string& p) {
          std::string text;
          if (!GetString(n, p, &text)) return;
          std::optional<uint64_t> bytes = ParseByteSize(text);
          if (!bytes) {
            Fail(n, p,
                 "expected a size such as 10G, 512M or 0 (no limit), got " +
                     Shown(n));
            return;
          }
          rt.reuse_limit = *bytes;
        }},
       {"never_reuse",
        StringList(&rt.never_reuse, "operation names such as [stamp]")},
       {"hosts", [&](const YAML::Node& n, const std::string& p) {
          ReadFreeMap(n, p,
                      [&](const std::string& op, const YAML::Node& value,
                          const std::string& child) {
                        StringList(&rt.hosts[op],
                                   "host labels or names such as [gpu]")(value,
                                                                         child);
                      });
        }}});
}

void Parser::ReadAdapters(const YAML::Node& node, const std::string& path,
                          std::vector<AdapterKind>* out) {
  auto read_one = [&](const YAML::Node& n, const std::string& p) {
    AdapterKind kind = AdapterKind::kLocal;
    size_t before = errors_.size();
    Enum(&kind, kAdapterNames)(n, p);
    if (errors_.size() == before) out->push_back(kind);
  };
  if (node.IsSequence()) {
    for (size_t i = 0; i < node.size(); ++i) {
      std::string p = path + "[" + std::to_string(i) + "]";
      config_.source.marks[p] = ToMark(node[i].Mark());
      read_one(node[i], p);
    }
    if (node.size() == 0) {
      Fail(node, path, "expected an adapter or a list of adapters, got []");
    }
    return;
  }
  read_one(node, path);
}

void Parser::ReadHost(const YAML::Node& node, const std::string& path) {
  config_.hosts.emplace_back();
  HostConfig& h = config_.hosts.back();
  BatchConfig& b = h.batch;
  // The name first, so that messages about the other keys can use it.
  if (node.IsMap() && node["name"] && node["name"].IsScalar()) {
    h.name = node["name"].Scalar();
  }
  ReadMap(
      node, path,
      {{"name", String(&h.name)},
       {"adapter",
        [&](const YAML::Node& n, const std::string& p) {
          ReadAdapters(n, p, &h.adapters);
        }},
       {"address", String(&h.address)},
       {"port", Int(&h.port, 1, 65535, "a port number (1-65535)")},
       {"user", String(&h.user)},
       {"identity", String(&h.identity)},
       {"known_hosts", String(&h.known_hosts)},
       {"host_key_check", Enum(&h.host_key_check, kHostKeyCheckNames)},
       {"slots", PositiveInt(&h.slots)},
       {"prefetch", Int(&h.prefetch, 0, 1 << 20, "an integer (0 or more)")},
       {"prefetch_window", Number(&h.prefetch_window, 0, true,
                                  "seconds (0 or more), such as 0.02")},
       {"memory", Number(&h.memory_gb, 0, false,
                         "a positive number of GB, such as 16 or 7.5")},
       {"workdir", String(&h.workdir)},
       {"shared_fs", Bool(&h.shared_fs)},
       {"env", StringMap(&h.env)},
       {"setup", StringList(&h.setup, "shell lines such as [module load gcc]")},
       {"launcher",
        StringList(&h.launcher, "words such as [apptainer, exec, image.sif]")},
       {"labels", StringList(&h.labels, "labels such as [gpu, bigmem]")},
       {"gpus",
        [&](const YAML::Node& n, const std::string& p) {
          h.gpus.emplace();
          if (n.IsScalar()) {  // a count: devices 0 .. k-1
            int64_t count = 0;
            if (!GetInt(n, p, 0, 1024,
                        "a number of GPUs or a list of device ids such as "
                        "[0, 1]",
                        &count))
              return;
            for (int64_t i = 0; i < count; ++i)
              h.gpus->push_back(std::to_string(i));
            return;
          }
          StringList(&*h.gpus, "device ids such as [0, 1]")(n, p);
        }},
       {"partition", String(&b.partition)},
       {"account", String(&b.account)},
       {"qos", String(&b.qos)},
       {"walltime",
        [&](const YAML::Node& n, const std::string& p) {
          auto value = n.IsScalar() ? ParseWalltime(n.Scalar()) : std::nullopt;
          if (value) {
            b.walltime = *value;
          } else {
            Fail(n, p,
                 "expected a time limit such as 90 (minutes), 1:30:00 or "
                 "2-00:00:00, got " +
                     Shown(n));
          }
        }},
       {"cpus_per_task", PositiveInt(&b.cpus_per_task)},
       {"mem",
        [&](const YAML::Node& n, const std::string& p) {
          auto value = n.IsScalar() ? ParseMemoryMb(n.Scalar()) : std::nullopt;
          if (value) {
            b.mem_mb = *value;
          } else {
            Fail(n, p,
                 "expected a memory size such as 4096 (MiB), 512M or 4G, "
                 "got " +
                     Shown(n));
          }
        }},
       {"max_jobs", PositiveInt(&b.max_jobs)},
       {"mode", Enum(&b.mode, kBatchModeNames)},
       {"pilots", PositiveInt(&b.pilots)},
       {"max_pilots", PositiveInt(&b.max_pilots)},
       {"pilot_linger",
        Number(&b.pilot_linger, 0, true, "seconds (0 or more), such as 60")},
       {"pilot_reattach",
        Number(&b.pilot_reattach, 0, true, "seconds (0 or more), such as 120")},
       {"batch_options", BatchOptions(&b.extra)},
       {"extra", BatchOptions(&b.extra)},
       {"via", String(&b.via)},
       {"listen", String(&b.listen)},
       {"sim", StringMap(&h.sim)}});
}

void Parser::ReadHostEnvironment(const YAML::Node& node,
                                 const std::string& path) {
  HostEnvironment& d = config_.host_defaults;
  ReadMap(node, path,
          {{"env", StringMap(&d.env)},
           {"setup", StringList(&d.setup,
                                "shell lines such as [module load "
                                "gcc]")},
           {"launcher", StringList(&d.launcher,
                                   "words such as [apptainer, "
                                   "exec, image.sif]")}});
}

void Parser::ReadHosts(const YAML::Node& node, const std::string& path) {
  if (!node.IsSequence() || node.size() == 0) {
    Fail(node, path,
         "expected a list of hosts ('- name: ...' entries), got " +
             (node.IsSequence() ? std::string("an empty list") : Shown(node)) +
             "; add a host, or remove the key to run on this machine only");
    return;
  }
  for (size_t i = 0; i < node.size(); ++i) {
    std::string p = path + "[" + std::to_string(i) + "]";
    config_.source.marks[p] = ToMark(node[i].Mark());
    ReadHost(node[i], p);
  }
}

// Where the first two documents of a YAML text start. Not YAML::LoadAll:
// in yaml-cpp 0.7 it loops forever on some malformed text (",name: a: 5"),
// whose parser then reports document after document without moving on.
// Two are enough to know there is more than one; a second one that starts
// where the first did is that loop (IsStuck), and the text is not YAML.
class DocumentStarts : public YAML::EventHandler {
 public:
  static std::vector<YAML::Mark> Find(const std::string& text) {
    std::istringstream in(text);
    YAML::Parser parser(in);
    DocumentStarts handler;
    for (int i = 0; i < 2 && parser.HandleNextDocument(handler); ++i) {
    }
    return handler.starts_;
  }
  static bool IsStuck(const std::vector<YAML::Mark>& starts) {
    return starts.size() == 2 && starts[1].pos == starts[0].pos;
  }

  void OnDocumentStart(const YAML::Mark& mark) override {
    starts_.push_back(mark);
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}

 private:
  std::vector<YAML::Mark> starts_;
};

// The offset of the first byte of `text` that is not part of well-formed
// UTF-8, or npos. YAML is Unicode text; yaml-cpp takes other bytes as they
// come and writes them back differently (found by fuzz/config_fuzzer: a key
// with such bytes did not survive ConfigToYaml).
size_t FirstNonUtf8(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    size_t n = c < 0x80           ? 1
               : (c >> 5) == 0x6  ? 2
               : (c >> 4) == 0xE  ? 3
               : (c >> 3) == 0x1E ? 4
                                  : 0;
    if (n == 0 || i + n > text.size()) return i;
    uint32_t cp = n == 1 ? c : c & (0x7F >> n);
    for (size_t k = 1; k < n; ++k) {
      const auto cc = static_cast<unsigned char>(text[i + k]);
      if ((cc >> 6) != 0x2) return i;
      cp = (cp << 6) | (cc & 0x3F);
    }
    // Overlong forms, UTF-16 surrogates, beyond U+10FFFF.
    static constexpr uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[n] || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) {
      return i;
    }
    i += n;
  }
  return std::string_view::npos;
}

ParsedYaml Parser::Parse(std::string_view text) {
  if (size_t bad = FirstNonUtf8(text); bad != std::string_view::npos) {
    std::string_view before = text.substr(0, bad);
    size_t line_start = before.rfind('\n');
    SourceMark mark;
    mark.line =
        1 + static_cast<int>(std::count(before.begin(), before.end(), '\n'));
    mark.column = 1 + static_cast<int>(line_start == std::string_view::npos
                                           ? bad
                                           : bad - line_start - 1);
    FailAt(mark, "",
           "this is not UTF-8 text (a byte that no UTF-8 character has "
           "here); save the file as UTF-8");
    return Result(false);
  }
  std::vector<YAML::Node> docs;
  std::vector<YAML::Mark> starts;
  try {
    starts = DocumentStarts::Find(std::string(text));
    if (!starts.empty() && !DocumentStarts::IsStuck(starts)) {
      docs.push_back(YAML::Load(std::string(text)));
    }
  } catch (const YAML::Exception& e) {
    FailAt(ToMark(e.mark), "",
           "YAML syntax error: " + e.msg +
               "; check the indentation and quoting on this line and the one "
               "before");
    return Result(false);
  }
  if (DocumentStarts::IsStuck(starts)) {
    FailAt(ToMark(starts[0]), "",
           "YAML syntax error: this is not YAML that gsrt can read; check "
           "the indentation and quoting on this line and the one before");
    return Result(false);
  }
  if (starts.size() > 1) {
    FailAt(ToMark(starts[1]), "",
           "the file holds more than one YAML document ('---'); keep one");
  }
  try {
    if (!docs.empty() && !docs[0].IsNull()) {
      ReadMap(docs[0], "",
              {{"runtime", [this](const YAML::Node& n,
                                  const std::string& p) { ReadRuntime(n, p); }},
               {"host_defaults",
                [this](const YAML::Node& n, const std::string& p) {
                  ReadHostEnvironment(n, p);
                }},
               {"hosts", [this](const YAML::Node& n, const std::string& p) {
                  ReadHosts(n, p);
                }}});
    }
  } catch (const YAML::Exception& e) {
    // Only a yaml-cpp defect would get here: every access is type-checked.
    FailAt(ToMark(e.mark), "", std::string("cannot read the file: ") + e.msg);
  }
  return Result(true);
}

}  // namespace

ParsedYaml ParseConfigYamlAll(std::string_view text,
                              std::string_view name_for_errors) {
  return Parser(name_for_errors).Parse(text);
}

StatusOr<Config> ParseConfigYaml(std::string_view text,
                                 std::string_view name_for_errors) {
  ParsedYaml parsed = ParseConfigYamlAll(text, name_for_errors);
  if (parsed.errors.empty()) return std::move(parsed.config);
  std::string msg;
  for (const std::string& e : parsed.errors) {
    if (!msg.empty()) msg += "\n";
    msg += e;
  }
  return Status::InvalidArgument(msg);
}

}  // namespace gs
