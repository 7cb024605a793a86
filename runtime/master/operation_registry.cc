#include "runtime/master/operation_registry.h"

#include <mutex>

#include "gs/gs_abi.h"

namespace gs {

namespace {

struct Registry {
  std::mutex mu;
  std::vector<std::string> names;
};

// A function-local static: stubs register during static initialisation,
// in an order no global of this file could be sure to precede.
Registry& TheRegistry() {
  static Registry registry;
  return registry;
}

}  // namespace

std::vector<std::string> RegisteredOperations() {
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  return r.names;
}

}  // namespace gs

extern "C" int gs_register_operations(const char* /*interface_name*/,
                                      const gs_operation* const* ops,
                                      int num_ops) {
  gs::Registry& r = gs::TheRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  for (int i = 0; i < num_ops; ++i) {
    if (ops[i] != nullptr && ops[i]->name != nullptr) {
      r.names.emplace_back(ops[i]->name);
    }
  }
  return 0;
}
