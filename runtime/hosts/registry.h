// From a configured host to its adapter, and to its installer for
// `gsdeploy setup`: the one place that knows which adapter kinds this build
// provides. Used by the master (GS_On) and by gsdeploy.
#ifndef GSRT_RUNTIME_HOSTS_REGISTRY_H_
#define GSRT_RUNTIME_HOSTS_REGISTRY_H_

#include <memory>
#include <string>

#include "adapters/adapter.h"
#include "adapters/host_installer.h"
#include "runtime/base/clock.h"
#include "runtime/config/config.h"

namespace boost::asio {
class io_context;
}  // namespace boost::asio

namespace gs {

// What an adapter needs besides its host's configuration.
struct AdapterContext {
  boost::asio::io_context* io = nullptr;
  Clock* clock = nullptr;
  const Config* config = nullptr;
  // The application's worker on the master's machine ("" for tools that
  // run no jobs).
  std::string worker;
};

// Whether this build provides `kind`.
bool AdapterAvailable(AdapterKind kind);

// The first adapter of `host.adapters` (tried in order, as JavaGAT does)
// that this build provides; an error naming the host when none is.
StatusOr<std::unique_ptr<Adapter>> MakeAdapter(const HostConfig& host,
                                               const AdapterContext& context);

// How setup reaches `host`, by its first adapter: this machine's installer
// for local hosts; for ssh hosts one that connects now and runs everything
// over that session. Batch hosts (slurm, pbs) run the master's own worker
// and agent on their nodes, which see the master's paths: they are checked
// on this machine, or, with `via`, over an ssh session to the login node
// (`config` gives that host). A host (or login node) that cannot be reached
// is Unavailable; one setup cannot serve (sim hosts, a batch host the run
// would refuse at connect) is FailedPrecondition, its message naming the
// host and what to do. `timeout` bounds each upload and --version run.
StatusOr<std::unique_ptr<HostInstaller>> MakeInstaller(const HostConfig& host,
                                                       const Config* config,
                                                       Seconds timeout);

// Each `mode: allocation` slurm host of `config` becomes one host per node
// of the Slurm allocation this process runs in (adapters/batch/
// allocation.h); nothing to do without such a host. An error, saying what
// to do, outside an allocation.
Status ExpandAllocations(Config* config);

}  // namespace gs

#endif  // GSRT_RUNTIME_HOSTS_REGISTRY_H_
