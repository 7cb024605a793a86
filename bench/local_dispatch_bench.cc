// Benchmark (b): no-op tasks end to end through gsrt's local adapter, in
// each worker mode, against the floor of one process per job: a raw
// posix_spawn + waitpid loop of a C program that exits at once (bench/
// noop_exit.c, linked against libc alone), with the same parallelism, in
// the same process, rounds alternating so that other load on the machine
// falls on every side alike.
//
//   local_dispatch_bench [tasks (default 3000)] [rounds (default 3)]
//
// Each round runs, in order: the baseline, the same raw loop of gsrt's own
// worker binary (what its start-up costs above the floor), gsrt with
// `runtime.workers: process`, with `fork` (a fresh process per job forked
// by a fork server), with `persistent`. Prints every round and the best
// rate of each side; the ratios are gsrt / baseline (goals: a fresh
// process per job, process or fork, >= 0.8; persistent >= 3).
//
// With GSRT_CONFIG set (bench/ssh_dispatch_bench.sh), only gsrt runs, with
// that config, and the last line says "gsrt N jobs/s, tasks alone M jobs/s":
// N from GS_On to GS_Off, M from the first call to the end of GS_Barrier
// (without connecting the hosts and shutting them down).
#include <gs/gs.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "noop_rate.h"
#include "raw_spawn.h"

namespace {

namespace fs = std::filesystem;

// `workers` null: the config GSRT_CONFIG names.
double GsrtRate(int tasks, const char* workers) {
  if (workers != nullptr) {
    std::ofstream config("gsrt.yaml");
    config << "runtime:\n  workers: " << workers << "\n";
  }
  return NoopCallRate(tasks);
}

// Seconds in GS_On (hosts connected: for an ssh host the session, the
// install check and the agent's start), from the first call to the end of
// GS_Barrier (the tasks), and in GS_Off.
struct NoopPhases {
  double on = 0, run = 0, off = 0;
};

NoopPhases MeasurePhases(int tasks) {
  NoopPhases p;
  const double t0 = Now();
  if (GS_On() != 0) std::exit(1);
  const double t1 = Now();
  for (int i = 0; i < tasks; ++i) noop(i);
  GS_Barrier();
  const double t2 = Now();
  if (GS_Off(0) != 0) std::exit(1);
  p.on = t1 - t0;
  p.run = t2 - t1;
  p.off = Now() - t2;
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  int tasks = argc > 1 ? std::atoi(argv[1]) : 3000;
  int rounds = argc > 2 ? std::atoi(argv[2]) : 3;
  if (tasks < 1 || rounds < 1) {
    std::fprintf(stderr, "usage: %s [tasks >= 1] [rounds >= 1]\n", argv[0]);
    return 2;
  }
  const std::string worker =
      fs::read_symlink("/proc/self/exe").string() + "-worker";
  const int slots =
      static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const fs::path dir =
      fs::temp_directory_path() / ("gsrt-bench-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::current_path(dir);
  const std::string result = (dir / "result").string();
  if (const char* named = std::getenv("GSRT_CONFIG"); named && *named) {
    double best = 0, best_tasks = 0;
    for (int r = 0; r < rounds; ++r) {
      const NoopPhases p = MeasurePhases(tasks);
      const double rate = tasks / (p.on + p.run + p.off);
      std::printf(
          "round %d: %.0f jobs/s; the tasks alone %.0f jobs/s (GS_On %.0f "
          "ms, GS_Off %.0f ms)\n",
          r + 1, rate, tasks / p.run, p.on * 1e3, p.off * 1e3);
      best = std::max(best, rate);
      best_tasks = std::max(best_tasks, tasks / p.run);
    }
    std::printf(
        "local_dispatch_bench: %d no-op tasks with %s: gsrt %.0f "
        "jobs/s, tasks alone %.0f jobs/s\n",
        tasks, named, best, best_tasks);
    fs::current_path("/");
    fs::remove_all(dir);
    return 0;
  }
  constexpr int kSides = 5;
  double best[kSides] = {0, 0, 0, 0, 0};
  std::vector<double> ratios[kSides - 1];
  for (int r = 0; r < rounds; ++r) {
    double rate[kSides];
    rate[0] = RawSpawnRate({GSRT_NOOP_EXIT}, tasks, slots);
    rate[1] = RawSpawnRate({worker, "run", "noop", result, "0"}, tasks, slots);
    rate[2] = GsrtRate(tasks, "process");
    rate[3] = GsrtRate(tasks, "fork");
    rate[4] = GsrtRate(tasks, "persistent");
    std::printf(
        "round %d: baseline (noop_exit) %.0f jobs/s, raw gsrt worker %.0f "
        "(%.2f), gsrt process %.0f (%.2f), gsrt fork %.0f (%.2f), gsrt "
        "persistent %.0f (%.2f)\n",
        r + 1, rate[0], rate[1], rate[1] / rate[0], rate[2], rate[2] / rate[0],
        rate[3], rate[3] / rate[0], rate[4], rate[4] / rate[0]);
    std::fflush(stdout);
    for (int i = 0; i < kSides; ++i) best[i] = std::max(best[i], rate[i]);
    for (int i = 0; i + 1 < kSides; ++i) {
      ratios[i].push_back(rate[i + 1] / rate[0]);
    }
  }
  auto spread = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    char text[64];
    std::snprintf(text, sizeof text, "%.2f-%.2f", v.front(), v.back());
    return std::string(text);
  };
  std::printf(
      "local_dispatch_bench: %d no-op tasks, %d slots, best of %d rounds:\n"
      "  baseline noop_exit   %6.0f jobs/s\n"
      "  raw gsrt worker      %6.0f jobs/s  ratio %.2f (rounds %s)\n"
      "  gsrt process mode    %6.0f jobs/s  ratio %.2f (rounds %s; goal >= "
      "0.8)\n"
      "  gsrt fork mode       %6.0f jobs/s  ratio %.2f (rounds %s; goal >= "
      "0.8)\n"
      "  gsrt persistent mode %6.0f jobs/s  ratio %.2f (rounds %s; goal >= "
      "3)\n",
      tasks, slots, rounds, best[0], best[1], best[1] / best[0],
      spread(ratios[0]).c_str(), best[2], best[2] / best[0],
      spread(ratios[1]).c_str(), best[3], best[3] / best[0],
      spread(ratios[2]).c_str(), best[4], best[4] / best[0],
      spread(ratios[3]).c_str());
  fs::current_path("/");
  fs::remove_all(dir);
  return 0;
}
