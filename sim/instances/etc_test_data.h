// Test support: where the Braun ETC instances are (sim/data), set at
// configure time (sim/CMakeLists.txt). A missing directory fails the test
// that needs it, with this message, rather than skipping it silently.
#ifndef GSRT_SIM_INSTANCES_ETC_TEST_DATA_H_
#define GSRT_SIM_INSTANCES_ETC_TEST_DATA_H_

#include <string>

#include "sim/instances/etc_matrix.h"

#ifndef GSRT_SIM_DATA
#error "GSRT_SIM_DATA must name the data directory, sim/data (CMake sets it)"
#endif

namespace gs {

inline StatusOr<EtcMatrix> LoadBraunInstance(const std::string& name) {
  std::string path = std::string(GSRT_SIM_DATA) + "/braun/" + name;
  auto m = LoadEtcFile(path);
  if (!m.ok()) {
    return m.status().WithContext(
        "the Braun ETC instances are read from " GSRT_SIM_DATA
        "/braun (GSRT_SIM_DATA, set by sim/CMakeLists.txt); restore "
        "that directory or reconfigure with the right path");
  }
  return m;
}

}  // namespace gs

#endif  // GSRT_SIM_INSTANCES_ETC_TEST_DATA_H_
