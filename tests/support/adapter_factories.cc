#include "tests/support/adapter_factories.h"

#include "adapters/local/local_adapter.h"

namespace gs {

const std::vector<AdapterFactory>& AdapterFactories() {
  static const auto* factories = new std::vector<AdapterFactory>{
      {
          .name = "local",
          .make = [](const AdapterTestEnv& env) -> std::unique_ptr<Adapter> {
            LocalAdapterOptions options;
            options.slots = env.slots;
            options.work_dir = env.work_dir;
            return std::make_unique<LocalAdapter>(*env.io, *env.clock, options);
          },
          .worker = GSRT_TEST_WORKER,
      },
  };
  return *factories;
}

}  // namespace gs
