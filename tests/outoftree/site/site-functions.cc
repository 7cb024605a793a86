// render scales its input by $SITE_SCALE (set by the module the hosts'
// setup loads: unset, it fails) and, when $SITE_LOG names a file, appends
// a line there saying what it held: kind, index, start and end (ns,
// CLOCK_REALTIME), CUDA_VISIBLE_DEVICES, GSRT_GPUS and its directory
// (which tells the host). The sequential build runs with no SITE_LOG.
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>

#include "site.h"

namespace {

long long NowNs() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void Log(const char* kind, int index, long long start) {
  const char* log = std::getenv("SITE_LOG");
  if (log == nullptr || *log == '\0') return;
  const char* cuda = std::getenv("CUDA_VISIBLE_DEVICES");
  const char* gsrt = std::getenv("GSRT_GPUS");
  char cwd[4096];
  if (!getcwd(cwd, sizeof cwd)) throw std::runtime_error("getcwd");
  FILE* f = std::fopen(log, "a");
  if (!f) throw std::runtime_error(std::string("cannot open ") + log);
  std::fprintf(f, "%s %d %lld %lld %s %s %s\n", kind, index, start, NowNs(),
               cuda && *cuda ? cuda : "-", gsrt && *gsrt ? gsrt : "-", cwd);
  std::fclose(f);
}

void Hold(int ms) {
  timespec d{ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&d, nullptr);
}

}  // namespace

void render(const char* input, int index, const char* image) {
  const long long start = NowNs();
  const char* scale = std::getenv("SITE_SCALE");
  if (scale == nullptr) throw std::runtime_error("SITE_SCALE is not set");
  std::ifstream in(input);
  std::ofstream out(image);
  for (long long v; in >> v;) out << v * std::atoll(scale) + index << "\n";
  Hold(400);  // holding its devices a while, so that jobs meet
  Log("render", index, start);
}

void summarize(const char* image, const char* summary) {
  const long long start = NowNs();
  std::ifstream in(image);
  long long sum = 0;
  for (long long v; in >> v;) sum += v;
  std::ofstream(summary) << sum << "\n";
  Hold(300);
  Log("summarize", 0, start);
}
