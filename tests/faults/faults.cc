// The master of the fault-test pipeline:
//   faults WIDTH LEVELS WORK_MS [SWITCHES_DIR [sync]]
// Every column is a chain of steps; columns are independent, so they run
// in parallel. With `sync`, the master then waits for the line count of
// column 0's last file (a synchronous call) and prints it. The files it
// leaves (col<I>-<L>.txt) are compared with the
// sequential run's.
#include "faults.h"

#include <gs/gs.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

std::string Name(int index, int level) {
  return "col" + std::to_string(index) + "-" + std::to_string(level) + ".txt";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr,
                 "usage: %s WIDTH LEVELS WORK_MS [SWITCHES_DIR [sync]]\n",
                 argv[0]);
    return 2;
  }
  const int width = std::atoi(argv[1]);
  const int levels = std::atoi(argv[2]);
  const int work_ms = std::atoi(argv[3]);
  const char* switches = argc > 4 ? argv[4] : "";
  if (GS_On() != 0) return 1;
  for (int i = 0; i < width; ++i) seed(Name(i, 0).c_str(), i);
  for (int l = 1; l <= levels; ++l) {
    for (int i = 0; i < width; ++i) {
      step(Name(i, l - 1).c_str(), Name(i, l).c_str(), l, i, work_ms, switches);
    }
  }
  if (argc > 5 && std::string(argv[5]) == "sync") {
    std::printf("lines: %d\n", lines(Name(0, levels).c_str()));
  }
  return GS_Off(0);
}
