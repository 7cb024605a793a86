// Runs programs as operations (tests/binary_test.sh):
//   binary ok       a gzip round trip, a sort, a script with spaces, quotes
//                   and $ in its arguments, a program writing only stderr,
//                   and a second round trip that overwrites data.gz
//   binary exit3    a program that exits 3
//   binary missing  a program that is not installed
#include <cstdio>
#include <cstring>

#include "binary.h"
#include <gs/gs.h>

namespace {

bool Write(const char* path, const char* text) {
  FILE* f = std::fopen(path, "w");
  if (!f) return false;
  std::fputs(text, f);
  return std::fclose(f) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "ok";
  if (!Write("data.txt", "gamma 30\nalpha 10\ndelta 4\nbeta 200\n") ||
      !Write("run me.sh", "printf '%s|%s\\n' \"$1\" \"$2\"\n") ||
      !Write("journal.txt", "")) {
    std::perror("binary: cannot write its input files");
    return 1;
  }
  if (GS_On() != 0) return 1;
  if (std::strcmp(mode, "exit3") == 0) {
    exits3("a line", "journal.txt");
    return GS_Off(0) == 0 ? 0 : 1;
  }
  if (std::strcmp(mode, "missing") == 0) {
    missing("data.txt");
    return GS_Off(0) == 0 ? 0 : 1;
  }
  pack("data.txt", "data.gz");
  unpack("data.gz", "round.txt");
  sort_by("data.txt", 2, "sorted.txt");
  script("run me.sh", "a b", "it's \"q\" $HOME;`x`", "printed.txt");
  stderr_only("err.txt");
  // data.gz again: a new version while the first one may still be read.
  pack("sorted.txt", "data.gz");
  unpack("data.gz", "round2.txt");
  return GS_Off(0) == 0 ? 0 : 1;
}
