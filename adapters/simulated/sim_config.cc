#include "adapters/simulated/sim_config.h"

#include <cmath>
#include <cstdlib>
#include <unordered_map>

#include "adapters/simulated/sim_adapter.h"
#include "adapters/simulated/sim_world.h"

namespace gs {

namespace {

class ConfiguredWork : public SimWorkModel {
 public:
  Seconds base = 1;
  double speed = 1;
  uint64_t output_bytes = 0;
  std::unordered_map<std::string, Seconds> per_op;

  Seconds ExecTime(const JobSpec& spec, uint32_t) const override {
    auto it = per_op.find(spec.operation);
    return (it == per_op.end() ? base : it->second) / speed;
  }
  uint64_t OutputBytes(const JobSpec&, size_t) const override {
    return output_bytes;
  }
};

// The world lives as long as its one adapter.
class OwningSimAdapter : public SimAdapter {
 public:
  OwningSimAdapter(std::unique_ptr<SimWorld> world, Clock* clock)
      : SimAdapter(world.get(), 0, clock), world_(std::move(world)) {}

 private:
  std::unique_ptr<SimWorld> world_;
};

}  // namespace

StatusOr<std::unique_ptr<Adapter>> MakeConfiguredSimAdapter(
    const std::string& host, int slots,
    const std::map<std::string, std::string>& params, Clock& clock) {
  auto work = std::make_shared<ConfiguredWork>();
  SimHostSpec spec;
  spec.name = host;
  spec.slots = slots > 0 ? slots : 1;
  std::string trace;
  for (const auto& [key, value] : params) {
    auto where = "host '" + host + "': sim." + key;
    if (key == "trace") {
      trace = value;
      continue;
    }
    char* end = nullptr;
    double v = std::strtod(value.c_str(), &end);
    if (value.empty() || *end || !std::isfinite(v) || v < 0) {
      return Status::InvalidArgument(where + ": expected a number >= 0, got '" +
                                     value + "'");
    }
    if (key == "time") {
      work->base = v;
    } else if (key.rfind("time.", 0) == 0 && key.size() > 5) {
      work->per_op[key.substr(5)] = v;
    } else if (key == "speed") {
      if (v <= 0) return Status::InvalidArgument(where + ": must be > 0");
      work->speed = v;
    } else if (key == "latency") {
      spec.latency = v;
    } else if (key == "bandwidth") {
      spec.bandwidth = v;
    } else if (key == "queue_wait") {
      spec.queue_wait = v;
    } else if (key == "output_bytes") {
      work->output_bytes = static_cast<uint64_t>(v);
    } else {
      return Status::InvalidArgument(
          where +
          " is not a sim parameter (known: time, time.OP, speed, latency, "
          "bandwidth, queue_wait, output_bytes, trace)");
    }
  }
  std::vector<SimHostSpec> hosts{spec};
  if (!trace.empty()) {
    Status s = LoadAvailabilityTrace(trace, &hosts);
    if (!s.ok()) return s.WithContext("host '" + host + "'");
  }
  auto world = std::make_unique<SimWorld>(std::move(hosts), work, 1);
  return std::unique_ptr<Adapter>(
      std::make_unique<OwningSimAdapter>(std::move(world), &clock));
}

}  // namespace gs
