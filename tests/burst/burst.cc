// The master of the autoscale-pilot scenario (tests/slurm_run_test.sh):
//   burst TASKS WORK_MS RELEASE
// TASKS `square` calls at once, a barrier, then a wait in the master's own
// code (no task runs) until the file RELEASE exists, so the test can watch
// idle pilots leave while the run goes on. The wait is bounded (120 s).
#include "burst.h"

#include <gs/gs.h>
#include <sys/stat.h>
#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s TASKS WORK_MS RELEASE\n", argv[0]);
    return 2;
  }
  const int tasks = std::atoi(argv[1]);
  const int work_ms = std::atoi(argv[2]);
  if (GS_On() != 0) return 1;
  for (int i = 0; i < tasks; ++i) {
    square(("square" + std::to_string(i) + ".txt").c_str(), i, work_ms);
  }
  GS_Barrier();
  std::printf("burst done\n");
  std::fflush(stdout);
  struct stat st;
  int waited_ms = 0;
  while (::stat(argv[3], &st) != 0) {
    if (waited_ms >= 120000) {
      std::fprintf(stderr, "burst: %s did not appear within 120 s\n", argv[3]);
      return GS_Off(1);
    }
    timespec d{0, 50 * 1000000L};
    nanosleep(&d, nullptr);
    waited_ms += 50;
  }
  return GS_Off(0);
}
