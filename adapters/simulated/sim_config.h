// A `sim` host from gsrt.yaml (`adapter: sim`, parameters under `sim:`), so
// a master program can run against simulated hosts through the usual
// configuration, in real time (or in virtual time under gsrt-sim). Keys:
//   time: seconds a job takes at speed 1 (default 1)
//   time.OP: the same for operation OP
//   speed: the host's speed (default 1): a job takes time / speed
//   latency: seconds per transfer (default 0)
//   bandwidth: bytes/s of the link (default 0 = instantaneous)
//   queue_wait: seconds before each job starts (default 0)
//   output_bytes: size of every output file (default 0)
//   trace: an availability trace file (lines `0 TIME up|reclaimed|down`)
// Jobs report no return value or out scalars: operations that have them
// get an error when their results are decoded.
#ifndef GSRT_ADAPTERS_SIMULATED_SIM_CONFIG_H_
#define GSRT_ADAPTERS_SIMULATED_SIM_CONFIG_H_

#include <map>
#include <memory>
#include <string>

#include "adapters/adapter.h"
#include "runtime/base/status.h"

namespace gs {

// The adapter for one configured sim host; errors name the host and key.
StatusOr<std::unique_ptr<Adapter>> MakeConfiguredSimAdapter(
    const std::string& host, int slots,
    const std::map<std::string, std::string>& params, Clock& clock);

}  // namespace gs

#endif  // GSRT_ADAPTERS_SIMULATED_SIM_CONFIG_H_
