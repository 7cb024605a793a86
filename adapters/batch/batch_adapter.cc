#include "adapters/batch/batch_adapter.h"

#include "adapters/batch/job_adapter.h"
#include "adapters/batch/pilot_adapter.h"

namespace gs {

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
