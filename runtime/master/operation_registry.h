// The operations the program's generated stubs declared (gs_register_
// operations, called before main), for GS_On's checks of gsrt.yaml.
#ifndef GSRT_RUNTIME_MASTER_OPERATION_REGISTRY_H_
#define GSRT_RUNTIME_MASTER_OPERATION_REGISTRY_H_

#include <string>
#include <vector>

namespace gs {

// Names of every registered operation, in registration order; empty when
// no stubs registered (a program built by an older gsstubgen).
std::vector<std::string> RegisteredOperations();

}  // namespace gs

#endif  // GSRT_RUNTIME_MASTER_OPERATION_REGISTRY_H_
