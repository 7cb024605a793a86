#include "adapters/registry.h"

#include "adapters/local/local_adapter.h"

namespace gs {

bool AdapterAvailable(AdapterKind kind) { return kind == AdapterKind::kLocal; }

StatusOr<std::unique_ptr<Adapter>> MakeAdapter(const HostConfig& host,
                                               const AdapterContext& context) {
  for (AdapterKind kind : host.adapters) {
    if (kind == AdapterKind::kLocal) {
      LocalAdapterOptions local;
      local.slots = host.slots;
      local.work_dir = context.config->runtime.work_dir;
      local.host_name = host.name;
      return std::unique_ptr<Adapter>(
          std::make_unique<LocalAdapter>(*context.io, *context.clock, local));
    }
  }
  std::string kinds;
  for (AdapterKind kind : host.adapters) {
    kinds += (kinds.empty() ? "" : ", ") + std::string(AdapterKindName(kind));
  }
  return Status::Unavailable("host '" + host.name + "': adapter " + kinds +
                             " is not available in this build of gsrt "
                             "(available: local)");
}

}  // namespace gs
