// Test support: where the Braun ETC instances are (runtime/sim/data), set at
// configure time (runtime/CMakeLists.txt). A missing directory fails the test
// that needs it, with this message, rather than skipping it silently.
#ifndef GSRT_RUNTIME_SIM_ETC_TEST_DATA_H_
#define GSRT_RUNTIME_SIM_ETC_TEST_DATA_H_

#include <string>

#include "runtime/sim/etc_matrix.h"

#ifndef GSRT_SIM_DATA
#error \
    "GSRT_SIM_DATA must name the data directory, runtime/sim/data (CMake sets it)"
#endif

namespace gs {

inline StatusOr<EtcMatrix> LoadBraunInstance(const std::string& name) {
  std::string path = std::string(GSRT_SIM_DATA) + "/braun/" + name;
  auto m = LoadEtcFile(path);
  if (!m.ok()) {
    return m.status().WithContext(
        "the Braun ETC instances are read from " GSRT_SIM_DATA
        "/braun (GSRT_SIM_DATA, set by runtime/CMakeLists.txt); restore "
        "that directory or reconfigure with the right path");
  }
  return m;
}

}  // namespace gs

#endif  // GSRT_RUNTIME_SIM_ETC_TEST_DATA_H_
