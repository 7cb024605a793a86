// ETC (expected time to compute) matrices: the Braun et al. (2001) benchmark
// format used by papers 003 and the mapping-heuristics literature. A plain
// value type plus a parser kept apart from file reading so tests need no
// files.
#ifndef GSRT_SIM_INSTANCES_ETC_MATRIX_H_
#define GSRT_SIM_INSTANCES_ETC_MATRIX_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/clock.h"
#include "runtime/base/status.h"

namespace gs {

// Expected execution time of every task on every machine, task-major.
struct EtcMatrix {
  size_t tasks = 0;
  size_t machines = 0;
  std::vector<Seconds> values;  // tasks * machines

  Seconds time(size_t task, size_t machine) const {
    return values[task * machines + machine];
  }
};

// Parses the Braun format: a first line `T M 0` (tasks, machines, an unused
// integer), then T*M non-negative finite numbers separated by any
// whitespace, task-major. `name` (usually the path) prefixes every error as
// `name:line: what is wrong`.
StatusOr<EtcMatrix> ParseEtc(std::string_view text, std::string_view name);

// Reads and parses the file at `path`.
StatusOr<EtcMatrix> LoadEtcFile(const std::string& path);

}  // namespace gs

#endif  // GSRT_SIM_INSTANCES_ETC_MATRIX_H_
