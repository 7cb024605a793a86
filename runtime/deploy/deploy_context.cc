#include "runtime/deploy/deploy_context.h"

#include <sys/stat.h>

#include <cerrno>

#include "runtime/hosts/registry.h"

namespace gs {

StatusOr<Config> LoadDeployConfig(const std::string& path,
                                  const ConfigEnv& env) {
  if (path.empty()) return LoadDefaultConfig(env);
  return LoadConfig(path, env);
}

StatusOr<std::vector<const HostConfig*>> SelectHosts(const Config& config,
                                                     std::string_view name) {
  std::vector<const HostConfig*> hosts;
  for (const HostConfig& host : config.hosts) {
    if (name.empty() || host.name == name) hosts.push_back(&host);
  }
  if (!hosts.empty() || name.empty()) return hosts;
  std::string names;
  for (const HostConfig& host : config.hosts) {
    names += (names.empty() ? "" : ", ") + host.name;
  }
  const std::string from = config.source.name.empty()
                               ? "the default configuration"
                               : config.source.name;
  return Status::NotFound("no host named '" + std::string(name) + "' in " +
                          from + "; the configured hosts are: " + names);
}

StatusOr<std::unique_ptr<History>> OpenHistoryForWrite(const Config& config) {
  return History::Open(config.runtime.history);
}

StatusOr<std::unique_ptr<History>> OpenHistoryIfExists(const Config& config) {
  struct stat st;
  if (::stat(config.runtime.history.c_str(), &st) != 0) {
    if (errno == ENOENT) return std::unique_ptr<History>();
    return Status::FromErrno(
        "cannot read the history file " + config.runtime.history, errno);
  }
  return History::Open(config.runtime.history);
}

AdapterMaker RegistryAdapterMaker(std::shared_ptr<const Config> config) {
  return [config](const HostConfig& host, boost::asio::io_context& io,
                  Clock& clock) {
    return MakeAdapter(host, AdapterContext{&io, &clock, config.get(), ""});
  };
}

bool IsBatchHost(const HostConfig& host) {
  return host.Uses(AdapterKind::kSlurm) || host.Uses(AdapterKind::kPbs);
}

bool SharesMasterFiles(const HostConfig& host) {
  return host.shared_fs || (!host.adapters.empty() &&
                            host.adapters.front() == AdapterKind::kLocal);
}

}  // namespace gs
