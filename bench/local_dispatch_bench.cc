// Benchmark (b): no-op tasks end to end through gsrt's local adapter,
// against a raw posix_spawn + waitpid loop of the same worker binary with
// the same argv and the same parallelism, measured in the same process.
//
//   local_dispatch_bench [tasks (default 5000)] [rounds (default 2)]
//
// Prints each round and the best rate of each side; the ratio is
// gsrt / raw (goal: at least 0.8).
#include <gs/gs.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "noop.h"

extern char** environ;

namespace {

namespace fs = std::filesystem;

double Now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// `tasks` runs of `worker run noop RESULT i`, at most `slots` at once.
double RawSpawnRate(const std::string& worker, int tasks, int slots,
                    const fs::path& dir) {
  std::vector<std::string> results;
  for (int s = 0; s < slots; ++s)
    results.push_back((dir / ("result" + std::to_string(s))).string());
  std::vector<pid_t> slot_pid(slots, 0);
  int started = 0, running = 0;
  double t0 = Now();
  while (started < tasks || running > 0) {
    while (started < tasks && running < slots) {
      int s = static_cast<int>(std::find(slot_pid.begin(), slot_pid.end(), 0) -
                               slot_pid.begin());
      std::string index = std::to_string(started);
      const char* argv[] = {worker.c_str(),     "run",         "noop",
                            results[s].c_str(), index.c_str(), nullptr};
      pid_t pid;
      if (posix_spawn(&pid, worker.c_str(), nullptr, nullptr,
                      const_cast<char**>(argv), environ) != 0) {
        std::perror("posix_spawn");
        std::exit(1);
      }
      slot_pid[s] = pid;
      ++started;
      ++running;
    }
    int status;
    pid_t done = ::waitpid(-1, &status, 0);
    if (done < 0) break;
    for (pid_t& p : slot_pid)
      if (p == done) p = 0;
    --running;
  }
  return tasks / (Now() - t0);
}

double GsrtRate(int tasks) {
  double t0 = Now();
  if (GS_On() != 0) std::exit(1);
  for (int i = 0; i < tasks; ++i) noop(i);
  if (GS_Off(0) != 0) std::exit(1);
  return tasks / (Now() - t0);
}

}  // namespace

int main(int argc, char** argv) {
  int tasks = argc > 1 ? std::atoi(argv[1]) : 5000;
  int rounds = argc > 2 ? std::atoi(argv[2]) : 2;
  if (tasks < 1 || rounds < 1) {
    std::fprintf(stderr, "usage: %s [tasks >= 1] [rounds >= 1]\n", argv[0]);
    return 2;
  }
  std::string worker = fs::read_symlink("/proc/self/exe").string() + "-worker";
  int slots =
      static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  fs::path dir =
      fs::temp_directory_path() / ("gsrt-bench-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::current_path(dir);
  double best_raw = 0, best_gsrt = 0;
  for (int r = 0; r < rounds; ++r) {
    double raw = RawSpawnRate(worker, tasks, slots, dir);
    double gsrt = GsrtRate(tasks);
    std::printf(
        "round %d: raw posix_spawn %.0f jobs/s, gsrt local %.0f jobs/s, ratio "
        "%.2f\n",
        r + 1, raw, gsrt, gsrt / raw);
    best_raw = std::max(best_raw, raw);
    best_gsrt = std::max(best_gsrt, gsrt);
  }
  std::printf(
      "local_dispatch_bench: %d no-op tasks, %d slots: raw %.0f jobs/s, "
      "gsrt %.0f jobs/s, ratio %.2f (goal >= 0.8)\n",
      tasks, slots, best_raw, best_gsrt, best_gsrt / best_raw);
  fs::current_path("/");
  fs::remove_all(dir);
  return 0;
}
