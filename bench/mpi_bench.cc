// Benchmark: a 4-rank MPI no-op as an operation (@MPI) against `mpirun -n
// 4` of the same program run directly, one job at a time, rounds
// alternating so that other load falls on both sides alike. gsrt runs on
// the local host with 4 slots (a gsrt.yaml this writes), and starts the
// job with the same mpirun and options (-n 4 --bind-to none --host
// localhost:4), so the ratio is what gsrt adds per MPI job.
//
//   mpi_bench [jobs (default 20)] [rounds (default 3)]
//
// Prints every round and the best rate of each side; the ratio is gsrt /
// direct (goal >= 0.8, issue 30). Run as root, it sets Open MPI's
// OMPI_ALLOW_RUN_AS_ROOT for both sides.
#include <gs/gs.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "alternating_rounds.h"
#include "bench_clock.h"
#include "mpi_noop.h"
#include "raw_spawn.h"

namespace {

double GsrtRate(int jobs) {
  const double t0 = Now();
  if (GS_On() != 0) std::exit(1);
  for (int i = 0; i < jobs; ++i) mpi_noop(i);
  if (GS_Off(0) != 0) std::exit(1);
  return jobs / (Now() - t0);
}

}  // namespace

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  const int jobs = argc > 1 ? std::atoi(argv[1]) : 20;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 3;
  if (jobs < 1 || rounds < 1) {
    std::fprintf(stderr, "usage: %s [jobs >= 1] [rounds >= 1]\n", argv[0]);
    return 2;
  }
  // gsrt-mpi-noop is built beside this program.
  const fs::path here = fs::canonical("/proc/self/exe").parent_path();
  const std::string path = here.string() + ":" + std::getenv("PATH");
  ::setenv("PATH", path.c_str(), 1);
  if (::getuid() == 0) {
    ::setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
    ::setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
  }
  const fs::path dir =
      fs::temp_directory_path() / ("gsrt-bench-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::current_path(dir);
  std::ofstream(dir / "gsrt.yaml")
      << "hosts:\n  - name: here\n    adapter: local\n    slots: 4\n";
  ::setenv("GSRT_CONFIG", (dir / "gsrt.yaml").c_str(), 1);
  const AlternatingRounds r = RunAlternatingRounds(
      rounds, 2,
      [&] {
        return RawSpawnRate({"mpirun", "-n", "4", "--bind-to", "none", "--host",
                             "localhost:4", "gsrt-mpi-noop"},
                            jobs, 1);
      },
      [&] { return GsrtRate(jobs); });
  std::printf(
      "mpi_bench: %d 4-rank MPI no-ops, one at a time, best of %d rounds:\n"
      "  direct mpirun -n 4  %6.2f jobs/s\n"
      "  gsrt @MPI           %6.2f jobs/s  ratio %.2f (rounds %.2f-%.2f; "
      "goal >= 0.8)\n",
      jobs, rounds, r.best_direct, r.best_gsrt, r.ratio(), r.low, r.high);
  fs::current_path("/");
  fs::remove_all(dir);
  return 0;
}
