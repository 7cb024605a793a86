#include "runtime/config/config.h"

#include <pwd.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "runtime/config/config_validate.h"
#include "runtime/config/config_yaml.h"

namespace gs {

namespace fs = std::filesystem;

std::string_view ReplicationModeName(ReplicationMode mode) {
  switch (mode) {
    case ReplicationMode::kOff:
      return "off";
    case ReplicationMode::kFixed:
      return "fixed";
    case ReplicationMode::kDynamic:
      return "dynamic";
  }
  return "?";
}

std::string_view ProgressModeName(ProgressMode mode) {
  switch (mode) {
    case ProgressMode::kAuto:
      return "auto";
    case ProgressMode::kAlways:
      return "always";
    case ProgressMode::kNever:
      return "never";
  }
  return "?";
}

std::string ConfigSource::Where(std::string_view path) const {
  if (name.empty()) return "";
  std::string p(path);
  while (!p.empty()) {
    auto it = marks.find(p);
    if (it != marks.end() && it->second.line > 0) {
      return name + ":" + std::to_string(it->second.line) + ":" +
             std::to_string(it->second.column) + ": ";
    }
    size_t cut = p.find_last_of(".[");
    if (cut == std::string::npos) break;
    p.resize(cut);
  }
  return name + ": ";
}

HostConfig WithHostDefaults(const HostEnvironment& defaults, HostConfig host) {
  const bool only_simulated =
      std::all_of(host.adapters.begin(), host.adapters.end(),
                  [](AdapterKind k) { return k == AdapterKind::kSim; });
  if (only_simulated) return host;
  for (const auto& [name, value] : defaults.env) host.env.emplace(name, value);
  host.setup.insert(host.setup.begin(), defaults.setup.begin(),
                    defaults.setup.end());
  if (host.launcher.empty()) host.launcher = defaults.launcher;
  return host;
}

const HostConfig* Config::FindHost(std::string_view name) const {
  for (const HostConfig& h : hosts) {
    if (h.name == name) return &h;
  }
  return nullptr;
}

ConfigEnv ConfigEnv::FromProcess() {
  ConfigEnv env;
  std::error_code ec;
  env.cwd = fs::current_path(ec).string();
  if (ec) env.cwd = "/";
  struct passwd pw;
  struct passwd* found = nullptr;
  char buf[4096];
  getpwuid_r(getuid(), &pw, buf, sizeof buf, &found);
  const char* home = std::getenv("HOME");
  if (home != nullptr && *home != '\0') {
    env.home = home;
  } else if (found != nullptr) {
    env.home = found->pw_dir;
  }
  const char* user = std::getenv("USER");
  if (user != nullptr && *user != '\0') {
    env.user = user;
  } else if (found != nullptr) {
    env.user = found->pw_name;
  }
  // The CPUs this process may use (containers and taskset narrow it).
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    env.cores = CPU_COUNT(&set);
  } else {
    env.cores = static_cast<int>(std::thread::hardware_concurrency());
  }
  env.cores = std::max(env.cores, 1);
  return env;
}

namespace {

// Expands a leading "~/" and makes `path` absolute from env.cwd.
Status MasterPath(const ConfigEnv& env, const Config& config,
                  const std::string& key, std::string* path) {
  std::string p = *path;
  if (p == "~" || p.starts_with("~/")) {
    if (env.home.empty()) {
      return Status::InvalidArgument(
          config.source.Where(key) + DescribeKey(key, config) +
          ": '~/' needs $HOME, which is not set; write an absolute path");
    }
    p = env.home + p.substr(1);
  } else if (p.starts_with("~")) {
    return Status::InvalidArgument(
        config.source.Where(key) + DescribeKey(key, config) +
        ": only a leading '~/' is expanded; write the path out in full");
  }
  fs::path abs = fs::path(env.cwd) / p;  // an absolute `p` replaces cwd
  abs = abs.lexically_normal();
  if (!abs.has_filename() && abs.has_parent_path() && abs != abs.root_path()) {
    abs = abs.parent_path();  // no trailing '/'
  }
  *path = abs.string();
  return Status::Ok();
}

// Hosts whose directories the master's machine sees (not over ssh).
bool WorkdirIsLocal(const HostConfig& h) {
  if (h.adapters.empty()) return true;
  switch (h.adapters.front()) {
    case AdapterKind::kLocal:
    case AdapterKind::kSim:
      return true;
    case AdapterKind::kSlurm:
    case AdapterKind::kPbs:
      return h.batch.via.empty();
    case AdapterKind::kSsh:
      return false;
  }
  return false;
}

StatusOr<std::string> ReadFile(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    return Status::NotFound("config file '" + path +
                            "' does not exist; check the name");
  }
  if (fs::is_directory(path, ec)) {
    return Status::InvalidArgument("config file '" + path +
                                   "' is a directory; name a YAML file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::FromErrno("open config file '" + path + "'", errno);
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad())
    return Status::FromErrno("read config file '" + path + "'", errno);
  return text.str();
}

}  // namespace

Status ResolveConfig(const ConfigEnv& env, Config* config) {
  RuntimeConfig& rt = config->runtime;
  Status s = MasterPath(env, *config, "runtime.work_dir", &rt.work_dir);
  if (!s.ok()) return s;
  if (rt.history.empty()) {
    rt.history = (fs::path(rt.work_dir) / "history.db").string();
  } else {
    s = MasterPath(env, *config, "runtime.history", &rt.history);
    if (!s.ok()) return s;
  }
  if (!rt.trace.empty()) {
    s = MasterPath(env, *config, "runtime.trace", &rt.trace);
    if (!s.ok()) return s;
  }
  if (config->hosts.empty()) {
    HostConfig local;
    local.name = "local";
    local.adapters = {AdapterKind::kLocal};
    config->hosts.push_back(local);
  }
  for (size_t i = 0; i < config->hosts.size(); ++i) {
    HostConfig& h = config->hosts[i];
    std::string path = "hosts[" + std::to_string(i) + "]";
    if (h.slots == 0 && !h.SlotsFromPilots() && !h.SlotsFromNodes()) {
      bool local = !h.adapters.empty() && h.adapters[0] == AdapterKind::kLocal;
      h.slots = local ? env.cores : 1;
    }
    if (WorkdirIsLocal(h)) {
      if (h.workdir.empty()) {
        h.workdir = (fs::path(rt.work_dir) / "hosts" / h.name).string();
      } else {
        s = MasterPath(env, *config, path + ".workdir", &h.workdir);
        if (!s.ok()) return s;
      }
    } else if (h.workdir.empty()) {
      // Relative: the remote side takes it from the login directory.
      h.workdir = ".gsrt/hosts/" + h.name;
    }
    if (h.Uses(AdapterKind::kSsh)) {
      if (h.user.empty()) h.user = env.user;
      if (h.known_hosts.empty()) h.known_hosts = "~/.ssh/known_hosts";
      s = MasterPath(env, *config, path + ".known_hosts", &h.known_hosts);
      if (!s.ok()) return s;
      if (!h.identity.empty()) {
        s = MasterPath(env, *config, path + ".identity", &h.identity);
        if (!s.ok()) return s;
      }
    }
  }
  return Status::Ok();
}

Config DefaultConfig(const ConfigEnv& env) {
  Config config;
  Status s = ResolveConfig(env, &config);
  // The defaults hold no "~/" and no user path, so only a broken invariant
  // could fail here.
  assert(s.ok());
  (void)s;
  return config;
}

StatusOr<Config> LoadConfigFromString(std::string_view text,
                                      std::string_view name_for_errors,
                                      const ConfigEnv& env) {
  // Every stage runs even after an earlier one found problems, so that
  // all of them are reported at once.
  ParsedYaml parsed = ParseConfigYamlAll(text, name_for_errors);
  std::string errors;
  for (const std::string& e : parsed.errors) {
    errors += (errors.empty() ? "" : "\n") + e;
  }
  if (!parsed.usable) return Status::InvalidArgument(errors);
  Config config = std::move(parsed.config);
  Status s = ResolveConfig(env, &config);
  if (s.ok()) s = ValidateConfig(config, parsed.failed_paths);
  if (!s.ok()) errors += (errors.empty() ? "" : "\n") + s.message();
  if (!errors.empty()) return Status::InvalidArgument(errors);
  return config;
}

StatusOr<Config> LoadConfigFromString(std::string_view text,
                                      std::string_view name_for_errors) {
  return LoadConfigFromString(text, name_for_errors, ConfigEnv::FromProcess());
}

StatusOr<Config> LoadConfig(const std::string& path, const ConfigEnv& env) {
  std::string file = (fs::path(env.cwd) / path).string();
  StatusOr<std::string> text = ReadFile(file);
  if (!text.ok()) return text.status();
  return LoadConfigFromString(*text, path, env);
}

StatusOr<Config> LoadConfig(const std::string& path) {
  return LoadConfig(path, ConfigEnv::FromProcess());
}

StatusOr<Config> LoadDefaultConfig(const ConfigEnv& env) {
  const char* named = std::getenv("GSRT_CONFIG");
  if (named != nullptr && *named != '\0') {
    std::error_code ec;
    if (!fs::exists(fs::path(env.cwd) / named, ec)) {
      return Status::NotFound(std::string("GSRT_CONFIG names '") + named +
                              "', which does not exist; fix the path or "
                              "unset GSRT_CONFIG");
    }
    return LoadConfig(named, env);
  }
  std::string file = (fs::path(env.cwd) / "gsrt.yaml").string();
  std::error_code ec;
  if (fs::exists(file, ec)) return LoadConfig(file, env);
  return DefaultConfig(env);
}

StatusOr<Config> LoadDefaultConfig(const std::string& cwd) {
  ConfigEnv env = ConfigEnv::FromProcess();
  std::error_code ec;
  env.cwd = fs::absolute(cwd, ec).lexically_normal().string();
  if (ec) env.cwd = cwd;
  return LoadDefaultConfig(env);
}

}  // namespace gs
