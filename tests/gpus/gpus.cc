// The master of tests/gpus_test.sh:
//   gpus TASKS WORK_MS [huge]
// TASKS calls: every fourth a 2-GPU `pair`, two of four a 1-GPU `one`, the
// rest a CPU-only `cpu`, each writing log<i>.txt; with `huge`, a call whose
// constraints fit no host comes first (the run must stop there).
#include "gpus.h"

#include <gs/gs.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s TASKS WORK_MS [huge]\n", argv[0]);
    return 2;
  }
  const int tasks = std::atoi(argv[1]);
  const int work_ms = std::atoi(argv[2]);
  if (GS_On() != 0) return 1;
  if (argc > 3 && std::strcmp(argv[3], "huge") == 0) huge("huge.txt");
  for (int i = 0; i < tasks; ++i) {
    std::string log = "log" + std::to_string(i) + ".txt";
    switch (i % 4) {
      case 0:
        pair(log.c_str(), i, work_ms);
        break;
      case 3:
        cpu(log.c_str(), i, work_ms);
        break;
      default:
        one(log.c_str(), i, work_ms);
    }
  }
  return GS_Off(0);
}
