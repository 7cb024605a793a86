// Braun-type ETC instances of any consistency and heterogeneity class, by
// the range-based method of Ali et al. (2000) used by Braun et al. (2001):
// each task t draws a baseline tau_t uniformly in [1, R_task), and its time
// on machine m is tau_t times a draw uniform in [1, R_mach). Braun's
// ranges: R_task 3000 (hi) or 100 (lo), R_mach 1000 (hi) or 10 (lo).
//   consistent       each row sorted: machine 0 fastest for every task;
//   semi-consistent  the even-numbered machines sorted among themselves in
//                    each row (a consistent sub-matrix), the odd ones as
//                    drawn;
//   inconsistent     as drawn.
// Deterministic for a seed on every platform (own draws from mt19937_64).
#ifndef GSRT_SIM_INSTANCES_ETC_GENERATE_H_
#define GSRT_SIM_INSTANCES_ETC_GENERATE_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "runtime/base/status.h"
#include "sim/instances/etc_matrix.h"

namespace gs {

enum class EtcConsistency { kConsistent, kSemiConsistent, kInconsistent };

struct EtcClass {
  EtcConsistency consistency = EtcConsistency::kInconsistent;
  bool task_hi = true;     // task heterogeneity
  bool machine_hi = true;  // machine heterogeneity
};

// Braun's names: "u_c_hihi", "u_s_lohi", "u_i_lolo", ...
StatusOr<EtcClass> ParseEtcClass(std::string_view name);
std::string EtcClassName(const EtcClass& cls);

EtcMatrix GenerateEtc(size_t tasks, size_t machines, const EtcClass& cls,
                      uint64_t seed);

// The Braun file format (ParseEtc reads it back exactly: 17 significant
// digits).
std::string FormatEtc(const EtcMatrix& etc);

}  // namespace gs

#endif  // GSRT_SIM_INSTANCES_ETC_GENERATE_H_
