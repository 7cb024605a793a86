#include "adapters/batch/batch_adapter.h"

#include "adapters/batch/job_adapter.h"
#include "adapters/batch/pilot_adapter.h"

namespace gs {

Status CheckBatchOptions(const BatchAdapterOptions& options) {
  if (!options.host.batch.via.empty() && options.login.name.empty()) {
    return Status::InvalidArgument(options.where + "host '" +
                                   options.host.name +
                                   "': `via: " + options.host.batch.via +
                                   "` names no ssh host of this config");
  }
  if (!options.login.name.empty() &&
      (options.host.workdir.empty() || options.host.workdir[0] != '/')) {
    return Status::InvalidArgument(
        options.where + "host '" + options.host.name +
        "': with `via`, gsrt writes the batch jobs' files on this machine "
        "and the nodes read them at the same path: set `workdir:` to an "
        "absolute directory on the file system this machine shares with "
        "the cluster (now '" +
        options.host.workdir + "')");
  }
  if (options.host.batch.mode == BatchMode::kJob && !options.host.shared_fs) {
    return Status::InvalidArgument(
        options.where + "host '" + options.host.name +
        "': `mode: job` runs every job on the nodes straight from the "
        "master's files and copies nothing, so it needs `shared_fs: true` "
        "(now false): set it if the nodes see the master's files at the "
        "same paths, or use `mode: pilot`, whose agents copy the files when "
        "`shared_fs` is false");
  }
  return Status::Ok();
}

std::unique_ptr<Adapter> MakeBatchAdapter(boost::asio::io_context& io,
                                          Clock& clock,
                                          BatchAdapterOptions options) {
  const bool pbs = !options.host.adapters.empty() &&
                   options.host.adapters.front() == AdapterKind::kPbs;
  auto system = pbs ? MakePbsSystem() : MakeSlurmSystem();
  if (options.host.batch.mode == BatchMode::kPilot) {
    return std::make_unique<PilotAdapter>(io, clock, std::move(options),
                                          std::move(system));
  }
  return std::make_unique<BatchJobAdapter>(io, clock, std::move(options),
                                           std::move(system));
}

}  // namespace gs
