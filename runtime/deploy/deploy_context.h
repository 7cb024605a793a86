// What every gsdeploy command starts from: the configuration, the hosts it
// works on, the history file, and the seam that makes a host's adapter.
#ifndef GSRT_RUNTIME_DEPLOY_DEPLOY_CONTEXT_H_
#define GSRT_RUNTIME_DEPLOY_DEPLOY_CONTEXT_H_

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "adapters/adapter.h"
#include "runtime/base/clock.h"
#include "runtime/base/status.h"
#include "runtime/config/config.h"
#include "runtime/history/history.h"

namespace boost::asio {
class io_context;
}  // namespace boost::asio

namespace gs {

// `path` when not empty (relative to env.cwd), else as GS_On finds it:
// $GSRT_CONFIG, ./gsrt.yaml, or the built-in default. Errors carry the
// loader's "FILE:LINE:COL: " positions.
StatusOr<Config> LoadDeployConfig(const std::string& path,
                                  const ConfigEnv& env);

// Every configured host when `name` is empty, else the one named; an
// unknown name is NotFound listing the configured names.
StatusOr<std::vector<const HostConfig*>> SelectHosts(const Config& config,
                                                     std::string_view name);

// Opens config.runtime.history for recording (created when missing).
StatusOr<std::unique_ptr<History>> OpenHistoryForWrite(const Config& config);
// Opens it for a report: nullptr, and no file created, when it does not
// exist yet. A file that is unreadable or has a newer schema is an error
// and is left untouched (History::Open checks before writing anything).
StatusOr<std::unique_ptr<History>> OpenHistoryIfExists(const Config& config);

// Makes the adapter of one host, its callbacks running on `io`. The probe
// runner calls it on the host's own thread. Tests plug in their own hosts
// here (a host they can stop); gsdeploy uses RegistryAdapterMaker.
using AdapterMaker = std::function<StatusOr<std::unique_ptr<Adapter>>(
    const HostConfig& host, boost::asio::io_context& io, Clock& clock)>;

// The production maker: runtime/hosts/registry.h's MakeAdapter. The maker and
// its adapters share `config` (a probe thread abandoned at its deadline may
// still use it).
AdapterMaker RegistryAdapterMaker(std::shared_ptr<const Config> config);

// True for adapter kinds that are batch queues (delta is a queue wait).
bool IsBatchHost(const HostConfig& host);
// True when the host sees the master's files (local, or shared_fs: true).
bool SharesMasterFiles(const HostConfig& host);

}  // namespace gs

#endif  // GSRT_RUNTIME_DEPLOY_DEPLOY_CONTEXT_H_
