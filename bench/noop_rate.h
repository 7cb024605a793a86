// What the no-op dispatch benchmarks share: a monotonic clock in seconds,
// the master process's CPU time, and the rate of `tasks` no-op calls through
// gsrt from GS_On to GS_Off.
#ifndef GSRT_BENCH_NOOP_RATE_H_
#define GSRT_BENCH_NOOP_RATE_H_

#include <gs/gs.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdlib>

#include "noop.h"

inline double Now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// CPU seconds (user + system) of this process, all its threads: the
// master's own cost, which an observer adds to. Unlike wall-clock rates it
// hardly moves with the machine's load.
inline double ProcessCpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto secs = [](const timeval& t) { return t.tv_sec + t.tv_usec / 1e6; };
  return secs(u.ru_utime) + secs(u.ru_stime);
}

// Exits the benchmark when gsrt cannot start or a task fails.
inline double NoopCallRate(int tasks) {
  double t0 = Now();
  if (GS_On() != 0) std::exit(1);
  for (int i = 0; i < tasks; ++i) noop(i);
  if (GS_Off(0) != 0) std::exit(1);
  return tasks / (Now() - t0);
}

#endif  // GSRT_BENCH_NOOP_RATE_H_
