// Each function writes one line: its kind, index, start and end (ns since
// the epoch, CLOCK_REALTIME, shared by every process of the machine), and
// the OMP_NUM_THREADS and SLURM_CPUS_PER_TASK it saw ("-" when unset).
#include <time.h>

#include <cstdio>
#include <cstdlib>

#include "cores.h"

namespace {

long long NowNs() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void Work(const char* log, const char* kind, int index, int work_ms) {
  long long start = NowNs();
  timespec d{work_ms / 1000, (work_ms % 1000) * 1000000L};
  nanosleep(&d, nullptr);  // the work itself: holding its cores for a while
  long long end = NowNs();
  const char* omp = std::getenv("OMP_NUM_THREADS");
  const char* cpus = std::getenv("SLURM_CPUS_PER_TASK");
  FILE* f = std::fopen(log, "w");
  if (!f) std::exit(1);
  std::fprintf(f, "%s %d %lld %lld %s %s\n", kind, index, start, end,
               omp ? omp : "-", cpus ? cpus : "-");
  std::fclose(f);
}

}  // namespace

void wide(const char* log, int index, int work_ms) {
  Work(log, "wide", index, work_ms);
}
void narrow(const char* log, int index, int work_ms) {
  Work(log, "narrow", index, work_ms);
}
void huge(const char* log) { Work(log, "huge", 0, 0); }
