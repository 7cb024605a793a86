// The series shared by the worker and the master's check.
#ifndef GSRT_EXAMPLES_SCRATCH_SERIES_H_
#define GSRT_EXAMPLES_SCRATCH_SERIES_H_

#include <cmath>
#include <cstdio>
#include <string>

namespace scratch {

inline double Sample(int step, int i) {
  return std::sin(0.001 * i + step) * (step + 1) + std::cos(0.0007 * i * step);
}

// "mean max" of the series, as reduce() writes it.
inline std::string Summary(int step, int count) {
  double sum = 0, max = -1e300;
  for (int i = 0; i < count; ++i) {
    double v = Sample(step, i);
    sum += v;
    max = v > max ? v : max;
  }
  char buf[96];
  std::snprintf(buf, sizeof buf, "%.17g %.17g", sum / count, max);
  return buf;
}

}  // namespace scratch

#endif  // GSRT_EXAMPLES_SCRATCH_SERIES_H_
