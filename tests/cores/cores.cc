// The master of tests/cores_test.sh:
//   cores TASKS WORK_MS [huge]
// TASKS calls, every third a 2-core `wide`, the others 1-core `narrow`,
// each writing log<i>.txt; with `huge`, a call whose constraints fit no host
// comes first (the run must stop there).
#include "cores.h"

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
    if (i % 3 == 1) {
      wide(log.c_str(), i, work_ms);
    } else {
      narrow(log.c_str(), i, work_ms);
    }
  }
  return GS_Off(0);
}
