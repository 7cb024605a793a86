// What the no-op dispatch benchmarks share: the rate of `tasks` no-op calls
// through gsrt from GS_On to GS_Off, measured with bench_clock.h.
#ifndef GSRT_BENCH_NOOP_RATE_H_
#define GSRT_BENCH_NOOP_RATE_H_

#include <gs/gs.h>

#include <algorithm>
#include <cstdlib>

#include "bench_clock.h"
#include "noop.h"

// Exits the benchmark when gsrt cannot start or a task fails.
inline double NoopCallRate(int tasks) {
  double t0 = Now();
  if (GS_On() != 0) std::exit(1);
  for (int i = 0; i < tasks; ++i) noop(i);
  if (GS_Off(0) != 0) std::exit(1);
  return tasks / (Now() - t0);
}

// One side of an on/off round: its rate and the master's CPU per task.
struct NoopSide {
  double rate = 0;
  double cpu_us = 0;
};

// Runs `rate_of(tasks)` (a function returning jobs/s) and measures the
// master's CPU time around it.
template <typename RateOf>
NoopSide MeasureSide(int tasks, RateOf rate_of) {
  const double c0 = ProcessCpuSeconds();
  const double rate = rate_of(tasks);
  return {rate, (ProcessCpuSeconds() - c0) / tasks * 1e6};
}

// The best of each side over the rounds: the highest rate and the least
// CPU per task (what the machine's load disturbed least).
struct OnOffBest {
  void Add(const NoopSide& off, const NoopSide& on) {
    off_rate = std::max(off_rate, off.rate);
    on_rate = std::max(on_rate, on.rate);
    off_cpu_us = std::min(off_cpu_us, off.cpu_us);
    on_cpu_us = std::min(on_cpu_us, on.cpu_us);
  }
  double off_rate = 0, on_rate = 0;
  double off_cpu_us = 1e300, on_cpu_us = 1e300;
};

#endif  // GSRT_BENCH_NOOP_RATE_H_
