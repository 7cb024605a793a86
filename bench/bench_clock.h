// What every benchmark reads the time with: a monotonic clock in seconds,
// and the CPU time of this process (the master, all its threads).
#ifndef GSRT_BENCH_BENCH_CLOCK_H_
#define GSRT_BENCH_BENCH_CLOCK_H_

#include <sys/resource.h>

#include <chrono>

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

#endif  // GSRT_BENCH_BENCH_CLOCK_H_
