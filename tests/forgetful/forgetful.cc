// A master that forgets GS_Off (issue 12): it submits a small pipeline and
// returns from main. gsrt must not lose its results silently. With
// `ignore-gs-on` it also ignores GS_On's return value (issue 36): its
// first call must name why GS_On failed.
//   forgetful [levels (default 3)] [ignore-gs-on]
#include <gs/gs.h>

#include <cstdlib>
#include <string>

#include "faults.h"

int main(int argc, char** argv) {
  int levels = argc > 1 ? std::atoi(argv[1]) : 3;
  bool ignore_gs_on = argc > 2 && std::string(argv[2]) == "ignore-gs-on";
  if (GS_On() != 0 && !ignore_gs_on) return 1;
  seed("level-0.txt", 0);
  for (int l = 1; l <= levels; ++l) {
    std::string src = "level-" + std::to_string(l - 1) + ".txt";
    std::string dst = "level-" + std::to_string(l) + ".txt";
    step(src.c_str(), dst.c_str(), l, 0, 0, "");
  }
  return 0;  // no GS_Off
}
