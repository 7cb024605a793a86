// Each function writes one line: its kind, index, start and end (ns since
// the epoch, CLOCK_REALTIME, shared by every process of the machine), and
// the CUDA_VISIBLE_DEVICES and GSRT_GPUS it saw ("-" when unset), and the
// directory it ran in (which says on which host).
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "gpus.h"

namespace {

long long NowNs() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void Work(const char* log, const char* kind, int index, int work_ms) {
  long long start = NowNs();
  timespec d{work_ms / 1000, (work_ms % 1000) * 1000000L};
  nanosleep(&d, nullptr);  // the work itself: holding its devices a while
  long long end = NowNs();
  const char* cuda = std::getenv("CUDA_VISIBLE_DEVICES");
  const char* gsrt = std::getenv("GSRT_GPUS");
  char cwd[4096];
  if (!getcwd(cwd, sizeof cwd)) std::exit(1);
  FILE* f = std::fopen(log, "w");
  if (!f) std::exit(1);
  std::fprintf(f, "%s %d %lld %lld %s %s %s\n", kind, index, start, end,
               cuda && *cuda ? cuda : "-", gsrt && *gsrt ? gsrt : "-", cwd);
  std::fclose(f);
}

}  // namespace

void pair(const char* log, int index, int work_ms) {
  Work(log, "pair", index, work_ms);
}
void one(const char* log, int index, int work_ms) {
  Work(log, "one", index, work_ms);
}
void cpu(const char* log, int index, int work_ms) {
  Work(log, "cpu", index, work_ms);
}
void huge(const char* log) { Work(log, "huge", 0, 0); }
