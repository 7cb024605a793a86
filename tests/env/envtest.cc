// The master of tests/env_test.sh:
//   envtest TASKS
// Writes input.txt, then TASKS calls alternating `probe` and `probe_other`,
// each writing report<i>.txt; then prints, per report, its lines that do
// not depend on the host (index, input, var, tool), which must be the
// sequential build's run in the same environment.
#include "envtest.h"

#include <gs/gs.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s TASKS\n", argv[0]);
    return 2;
  }
  const int tasks = std::atoi(argv[1]);
  FILE* in = std::fopen("input.txt", "w");
  if (!in || std::fputs("envtest input\n", in) < 0 || std::fclose(in) != 0) {
    std::perror("envtest: input.txt");
    return 1;
  }
  if (GS_On() != 0) return 1;
  for (int i = 0; i < tasks; ++i) {
    std::string report = "report" + std::to_string(i) + ".txt";
    if (i % 2 == 0) {
      probe("input.txt", i, report.c_str());
    } else {
      probe_other("input.txt", i, report.c_str());
    }
  }
  int status = 0;
  for (int i = 0; i < tasks; ++i) {
    std::string report = "report" + std::to_string(i) + ".txt";
    FILE* f = GS_FOpen(report.c_str(), R);
    if (!f) {
      std::fprintf(stderr, "envtest: cannot read %s\n", report.c_str());
      status = 1;
      continue;
    }
    char line[4096];
    while (std::fgets(line, sizeof line, f)) {
      static const char* const kKept[] = {"index=", "input=", "var=", "tool="};
      for (const char* key : kKept) {
        if (std::strncmp(line, key, std::strlen(key)) == 0) {
          std::fputs(line, stdout);
        }
      }
    }
    GS_FClose(f);
  }
  return GS_Off(status);
}
