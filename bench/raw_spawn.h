// The floor of one process per job, for the dispatch benchmarks: `tasks`
// runs of a program by posix_spawnp + waitpid, at most `slots` at once.
#ifndef GSRT_BENCH_RAW_SPAWN_H_
#define GSRT_BENCH_RAW_SPAWN_H_

#include <spawn.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench_clock.h"

extern char** environ;

// Returns jobs/s; exits the benchmark when a run fails.
inline double RawSpawnRate(const std::vector<std::string>& args, int tasks,
                           int slots) {
  std::vector<char*> argv;
  for (const std::string& a : args)
    argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  int started = 0, running = 0;
  double t0 = Now();
  while (started < tasks || running > 0) {
    while (started < tasks && running < slots) {
      pid_t pid;
      if (posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), environ) !=
          0) {
        std::perror("posix_spawnp");
        std::exit(1);
      }
      ++started;
      ++running;
    }
    int status;
    if (::waitpid(-1, &status, 0) < 0) break;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      std::fprintf(stderr, "%s failed (status %d)\n", argv[0], status);
      std::exit(1);
    }
    --running;
  }
  return tasks / (Now() - t0);
}

#endif  // GSRT_BENCH_RAW_SPAWN_H_
