// Scratch-file reuse: every iteration writes the same scratch.dat, then
// reduces it into its own partial file. Sequentially the iterations could
// not overlap; with renaming they run in parallel and still produce the
// same report.
//
//   scratch [iterations (default 8)] [samples (default 200000)]
#include "scratch.h"

#include <gs/gs.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "series.h"

int main(int argc, char** argv) {
  int steps = argc > 1 ? std::atoi(argv[1]) : 8;
  int count = argc > 2 ? std::atoi(argv[2]) : 200000;
  if (steps < 1 || count < 1) {
    std::fprintf(stderr, "usage: %s [iterations >= 1] [samples >= 1]\n",
                 argv[0]);
    return 2;
  }
  if (GS_On() != 0) return 1;
  // The master writes the report's header itself: a new version that the
  // first collect() reads.
  FILE* header = GS_FOpen("scratch report.txt", W);
  if (!header) return GS_Off(1);
  std::fprintf(header, "# scratch: %d iterations of %d samples\n", steps,
               count);
  GS_FClose(header);
  for (int s = 0; s < steps; ++s) {
    std::string partial = "scratch-partial-" + std::to_string(s) + ".txt";
    simulate("scratch.dat", s, count);
    reduce("scratch.dat", partial.c_str());
    // Labels go to the worker untouched, whatever they contain.
    std::string label = "step " + std::to_string(s) + " \"quoted\"; $HOME";
    collect("scratch report.txt", partial.c_str(), label.c_str());
  }
  // Check the report against the same series computed here.
  std::string expect = "# scratch: " + std::to_string(steps) +
                       " iterations of " + std::to_string(count) + " samples\n";
  for (int s = 0; s < steps; ++s) {
    expect += "step " + std::to_string(s) +
              " \"quoted\"; $HOME: " + scratch::Summary(s, count) + "\n";
  }
  std::string got;
  if (FILE* f = GS_FOpen("scratch report.txt", R)) {
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) got.append(buf, n);
    GS_FClose(f);
  }
  bool same = got == expect;
  int status = GS_Off(same ? 0 : 1);
  if (same && status == 0) {
    std::printf(
        "scratch: %d iterations: report matches the sequential computation\n",
        steps);
    return 0;
  }
  std::printf(
      "scratch: report DIFFERS from the sequential computation\n--- got\n%s--- "
      "expected\n%s",
      got.c_str(), expect.c_str());
  return 1;
}
