// Benchmark: an operation that runs a program (@Binary) against spawning
// the same program directly. `true` as an operation through gsrt (local
// host, default persistent workers: each job's worker vforks and execs
// `true`) versus a raw posix_spawnp + waitpid loop of `true` with the same
// parallelism, in the same process, rounds alternating so that other load
// falls on both sides alike. Both sides run the same command line.
//
//   binary_bench [jobs (default 1000)] [rounds (default 3)]
//
// Prints every round and the best rate of each side; the ratio is gsrt /
// direct (goal >= 0.8, issue 30); then each side's CPU per job.
#include <gs/gs.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>

#include "alternating_rounds.h"
#include "bench_clock.h"
#include "raw_spawn.h"
#include "true_program.h"

namespace {

// CPU seconds of this process's reaped children (the direct side's
// programs; the workers, with the programs they reaped, once GS_Off
// reaped them).
double ChildrenCpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_CHILDREN, &u);
  auto secs = [](const timeval& t) { return t.tv_sec + t.tv_usec / 1e6; };
  return secs(u.ru_utime) + secs(u.ru_stime);
}

// The least CPU per job a side used over the rounds, in ms: this
// process's own (the master; the direct side's loop) and its children's.
struct CpuPerJob {
  template <typename Side>
  double Measure(int jobs, Side side) {
    const double self0 = ProcessCpuSeconds(), kids0 = ChildrenCpuSeconds();
    const double rate = side();
    const double self = (ProcessCpuSeconds() - self0) / jobs * 1e3;
    const double kids = (ChildrenCpuSeconds() - kids0) / jobs * 1e3;
    if (self + kids < self_ms + children_ms) {
      self_ms = self;
      children_ms = kids;
    }
    return rate;
  }
  double self_ms = 1e300, children_ms = 0;
};

double GsrtRate(int jobs) {
  const double t0 = Now();
  if (GS_On() != 0) std::exit(1);
  for (int i = 0; i < jobs; ++i) run_true();
  if (GS_Off(0) != 0) std::exit(1);
  return jobs / (Now() - t0);
}

}  // namespace

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  const int jobs = argc > 1 ? std::atoi(argv[1]) : 1000;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 3;
  if (jobs < 1 || rounds < 1) {
    std::fprintf(stderr, "usage: %s [jobs >= 1] [rounds >= 1]\n", argv[0]);
    return 2;
  }
  const int slots =
      static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const fs::path dir =
      fs::temp_directory_path() / ("gsrt-bench-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::current_path(dir);
  CpuPerJob direct_cpu, gsrt_cpu;
  const AlternatingRounds r = RunAlternatingRounds(
      rounds, 0,
      [&] {
        return direct_cpu.Measure(
            jobs, [&] { return RawSpawnRate({"true"}, jobs, slots); });
      },
      [&] { return gsrt_cpu.Measure(jobs, [&] { return GsrtRate(jobs); }); });
  std::printf(
      "binary_bench: %d jobs of `true`, %d slots, best of %d rounds:\n"
      "  direct posix_spawnp %6.0f jobs/s\n"
      "  gsrt @Binary        %6.0f jobs/s  ratio %.2f (rounds %.2f-%.2f; "
      "goal >= 0.8)\n",
      jobs, slots, rounds, r.best_direct, r.best_gsrt, r.ratio(), r.low,
      r.high);
  std::printf(
      "  CPU per job (least of the rounds): direct %.3f ms (loop %.3f, "
      "programs %.3f); gsrt %.3f ms (master %.3f, workers and programs "
      "%.3f)\n",
      direct_cpu.self_ms + direct_cpu.children_ms, direct_cpu.self_ms,
      direct_cpu.children_ms, gsrt_cpu.self_ms + gsrt_cpu.children_ms,
      gsrt_cpu.self_ms, gsrt_cpu.children_ms);
  fs::current_path("/");
  fs::remove_all(dir);
  return 0;
}
