#include "sim/instances/etc_generate.h"

#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

namespace gs {

StatusOr<EtcClass> ParseEtcClass(std::string_view name) {
  EtcClass cls;
  auto bad = [&] {
    return Status::InvalidArgument(
        "unknown ETC class '" + std::string(name) +
        "'; expected u_X_YYZZ with X one of c (consistent), s "
        "(semi-consistent), i (inconsistent) and YY, ZZ hi or lo (task, "
        "machine heterogeneity), e.g. u_i_hilo");
  };
  if (name.size() != 8 || name.substr(0, 2) != "u_" || name[3] != '_')
    return bad();
  switch (name[2]) {
    case 'c':
      cls.consistency = EtcConsistency::kConsistent;
      break;
    case 's':
      cls.consistency = EtcConsistency::kSemiConsistent;
      break;
    case 'i':
      cls.consistency = EtcConsistency::kInconsistent;
      break;
    default:
      return bad();
  }
  std::string_view yy = name.substr(4, 2), zz = name.substr(6, 2);
  if ((yy != "hi" && yy != "lo") || (zz != "hi" && zz != "lo")) return bad();
  cls.task_hi = yy == "hi";
  cls.machine_hi = zz == "hi";
  return cls;
}

std::string EtcClassName(const EtcClass& cls) {
  const char* x = cls.consistency == EtcConsistency::kConsistent       ? "c"
                  : cls.consistency == EtcConsistency::kSemiConsistent ? "s"
                                                                       : "i";
  return std::string("u_") + x + "_" + (cls.task_hi ? "hi" : "lo") +
         (cls.machine_hi ? "hi" : "lo");
}

EtcMatrix GenerateEtc(size_t tasks, size_t machines, const EtcClass& cls,
                      uint64_t seed) {
  std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + 17);
  auto uniform = [&](double lo, double hi) {
    return lo + (hi - lo) * (static_cast<double>(rng() >> 11) * 0x1.0p-53);
  };
  const double r_task = cls.task_hi ? 3000 : 100;
  const double r_mach = cls.machine_hi ? 1000 : 10;
  EtcMatrix etc;
  etc.tasks = tasks;
  etc.machines = machines;
  etc.values.resize(tasks * machines);
  std::vector<Seconds> even;
  for (size_t t = 0; t < tasks; ++t) {
    Seconds* row = &etc.values[t * machines];
    double tau = uniform(1, r_task);
    for (size_t m = 0; m < machines; ++m) row[m] = tau * uniform(1, r_mach);
    if (cls.consistency == EtcConsistency::kConsistent) {
      std::sort(row, row + machines);
    } else if (cls.consistency == EtcConsistency::kSemiConsistent) {
      even.clear();
      for (size_t m = 0; m < machines; m += 2) even.push_back(row[m]);
      std::sort(even.begin(), even.end());
      for (size_t m = 0, k = 0; m < machines; m += 2) row[m] = even[k++];
    }
  }
  return etc;
}

std::string FormatEtc(const EtcMatrix& etc) {
  std::string out =
      std::to_string(etc.tasks) + " " + std::to_string(etc.machines) + " 0\n";
  char buf[40];
  for (Seconds v : etc.values) {
    std::snprintf(buf, sizeof buf, "%.17g\n", v);
    out += buf;
  }
  return out;
}

}  // namespace gs
