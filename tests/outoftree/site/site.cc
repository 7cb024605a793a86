// The master of tests/outoftree/site_test.sh:
//   site IMAGES
// Writes IMAGES inputs, renders each (two GPUs a job) and summarizes it
// (no GPU), then prints the summaries.
#include "site.h"

#include <gs/gs.h>

#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char** argv) {
  const int images = argc > 1 ? std::atoi(argv[1]) : 6;
  for (int i = 0; i < images; ++i) {
    FILE* f = std::fopen(("input" + std::to_string(i) + ".txt").c_str(), "w");
    if (!f) return 1;
    for (int v = 1; v <= 5; ++v) std::fprintf(f, "%d\n", v * (i + 1));
    std::fclose(f);
  }
  if (GS_On() != 0) return 1;
  for (int i = 0; i < images; ++i) {
    const std::string n = std::to_string(i);
    render(("input" + n + ".txt").c_str(), i, ("image" + n + ".txt").c_str());
    summarize(("image" + n + ".txt").c_str(), ("summary" + n + ".txt").c_str());
  }
  for (int i = 0; i < images; ++i) {
    FILE* f = GS_FOpen(("summary" + std::to_string(i) + ".txt").c_str(), R);
    if (!f) return GS_Off(1);
    char line[64] = "";
    if (!std::fgets(line, sizeof line, f)) line[0] = '\0';
    GS_FClose(f);
    std::printf("summary %d: %s", i, line);
  }
  return GS_Off(0);
}
