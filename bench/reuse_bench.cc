// Benchmark: results that last across runs (docs/reuse.md). No-op tasks,
// each reading its own 1 KiB file, through gsrt's local adapter, in one
// process and one round after another:
//   off    reuse off, a fresh work dir: the baseline;
//   first  reuse on, a fresh work dir: what hashing, the store and the
//          entries add to a run (goal: at most 5 % more than off);
//   rerun  reuse on again, nothing changed: every task reused (goal: at
//          most 10 % of first).
//
//   reuse_bench [tasks (default 10000)] [rounds (default 2)] [SIDE]
//
// With SIDE (off, first or rerun) only that side's runs are made and timed
// (reruns of one work dir after an untimed first run): for perf record.
//
// Prints each round, then the least time of each side and the ratios.
#include <gs/gs.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "bench_clock.h"
#include "reuse_noop.h"

namespace {

namespace fs = std::filesystem;

double cpu_of_last_run = 0;

// Seconds from GS_On to GS_Off for `tasks` calls; exits on a failure.
// Leaves the master's CPU seconds in cpu_of_last_run.
double RunOnce(int tasks) {
  const double c0 = ProcessCpuSeconds();
  const double t0 = Now();
  if (GS_On() != 0) std::exit(1);
  for (int i = 0; i < tasks; ++i) {
    std::string input = "in/" + std::to_string(i);
    noop_read(input.c_str(), i);
  }
  if (GS_Off(0) != 0) std::exit(1);
  cpu_of_last_run = ProcessCpuSeconds() - c0;
  return Now() - t0;
}

}  // namespace

int main(int argc, char** argv) {
  const int tasks = argc > 1 ? std::atoi(argv[1]) : 10000;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 2;
  const std::string only = argc > 3 ? argv[3] : "";
  if (!only.empty() && only != "off" && only != "first" && only != "rerun") {
    std::fprintf(stderr, "%s: SIDE is off, first or rerun, not %s\n", argv[0],
                 only.c_str());
    return 2;
  }
  if (tasks < 1 || rounds < 1) {
    std::fprintf(stderr, "usage: %s [tasks >= 1] [rounds >= 1]\n", argv[0]);
    return 2;
  }
  const fs::path dir = fs::temp_directory_path() /
                       ("gsrt-reuse-bench-" + std::to_string(::getpid()));
  fs::create_directories(dir / "in");
  fs::current_path(dir);
  for (int i = 0; i < tasks; ++i) {
    std::ofstream f("in/" + std::to_string(i), std::ios::binary);
    std::string block(1024, 'a' + i % 26);
    block.replace(0, std::to_string(i).size(), std::to_string(i));
    f << block;
  }
  unsetenv("GSRT_CONFIG");
  if (!only.empty()) {
    for (int r = 0; r < rounds; ++r) {
      setenv("GSRT_REUSE", only == "off" ? "0" : "1", 1);
      if (only != "rerun") fs::remove_all(".gsrt");
      if (only == "rerun" && r == 0) RunOnce(tasks);
      const double t = RunOnce(tasks);
      std::printf("round %d: %s %.3f s, master CPU per task %.1f us\n", r + 1,
                  only.c_str(), t, cpu_of_last_run / tasks * 1e6);
    }
    fs::current_path("/");
    fs::remove_all(dir);
    return 0;
  }
  double best_off = 1e300, best_first = 1e300, best_rerun = 1e300;
  for (int r = 0; r < rounds; ++r) {
    fs::remove_all(".gsrt");
    setenv("GSRT_REUSE", "0", 1);
    const double off = RunOnce(tasks);
    const double off_cpu = cpu_of_last_run;
    fs::remove_all(".gsrt");
    setenv("GSRT_REUSE", "1", 1);
    const double first = RunOnce(tasks);
    const double first_cpu = cpu_of_last_run;
    const double rerun = RunOnce(tasks);
    const double rerun_cpu = cpu_of_last_run;
    std::printf(
        "round %d: off %.3f s, first %.3f s (x%.3f), rerun %.3f s "
        "(x%.3f of first); master CPU per task %.1f / %.1f / %.1f us\n",
        r + 1, off, first, first / off, rerun, rerun / first,
        off_cpu / tasks * 1e6, first_cpu / tasks * 1e6,
        rerun_cpu / tasks * 1e6);
    best_off = std::min(best_off, off);
    best_first = std::min(best_first, first);
    best_rerun = std::min(best_rerun, rerun);
  }
  std::printf(
      "reuse_bench: %d no-op tasks with 1 KiB inputs: off %.3f s, first run "
      "with reuse %.3f s, ratio first/off %.3f (goal <= 1.05)\n",
      tasks, best_off, best_first, best_first / best_off);
  std::printf(
      "reuse_bench: rerun with nothing changed %.3f s, ratio rerun/first "
      "%.3f (goal <= 0.10)\n",
      best_rerun, best_rerun / best_first);
  fs::current_path("/");
  fs::remove_all(dir);
  return 0;
}
