// Benchmark: the cost of GSRT_TRACE. No-op tasks end to end through gsrt's
// local adapter with the trace off and on, alternately in the same process
// (rounds; the side that goes first changes every round, since each run
// grows the work dir's history), so both sides see the same machine load.
//
//   trace_bench [tasks (default 3000)] [rounds (default 3)]
//
// Prints each round and the best rate of each side; the ratio is
// on / off (goal: at least 0.95, i.e. tracing at most 5 % slower). Also the
// master's CPU time per task on each side (the least of the rounds): what
// tracing adds to the master's own work, which load on the machine barely
// disturbs where the wall-clock rates swing with it.
#include <gs/gs.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "noop_rate.h"

namespace {

namespace fs = std::filesystem;

}  // namespace

int main(int argc, char** argv) {
  int tasks = argc > 1 ? std::atoi(argv[1]) : 3000;
  int rounds = argc > 2 ? std::atoi(argv[2]) : 3;
  if (tasks < 1 || rounds < 1) {
    std::fprintf(stderr, "usage: %s [tasks >= 1] [rounds >= 1]\n", argv[0]);
    return 2;
  }
  fs::path dir = fs::temp_directory_path() /
                 ("gsrt-trace-bench-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::current_path(dir);
  const std::string trace = (dir / "trace.json").string();
  OnOffBest best;
  for (int r = 0; r < rounds; ++r) {
    // Every run grows the work dir's history a little, and the later run
    // of a round pays for it: the sides take turns going first.
    auto side = [&](bool traced) {
      if (traced) {
        setenv("GSRT_TRACE", trace.c_str(), 1);
      } else {
        unsetenv("GSRT_TRACE");
      }
      return MeasureSide(tasks, NoopCallRate);
    };
    NoopSide off, on;
    if (r % 2 == 0) {
      off = side(false);
      on = side(true);
    } else {
      on = side(true);
      off = side(false);
    }
    std::printf(
        "round %d: trace off %.0f jobs/s, on %.0f jobs/s, ratio %.3f; "
        "master CPU %.1f / %.1f us per task (trace %llu bytes)\n",
        r + 1, off.rate, on.rate, on.rate / off.rate, off.cpu_us, on.cpu_us,
        static_cast<unsigned long long>(fs::file_size(trace)));
    best.Add(off, on);
  }
  std::printf(
      "trace_bench: %d no-op tasks: trace off %.0f jobs/s, on %.0f jobs/s, "
      "ratio on/off %.3f (goal >= 0.95)\n",
      tasks, best.off_rate, best.on_rate, best.on_rate / best.off_rate);
  std::printf(
      "trace_bench: master CPU per task: off %.1f us, on %.1f us, ratio "
      "on/off %.3f (goal <= 1.05)\n",
      best.off_cpu_us, best.on_cpu_us, best.on_cpu_us / best.off_cpu_us);
  fs::current_path("/");
  fs::remove_all(dir);
  return 0;
}
