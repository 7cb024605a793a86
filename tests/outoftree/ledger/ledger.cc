// The master: sequential code whose calls run as tasks.
#include "ledger.h"

#include <gs/gs.h>

#include <cstdio>
#include <string>

int main(int argc, char** argv) {
  if (GS_On() != 0) return 1;
  // `ledger GATE`: a first task holds the run until GATE exists, so a test
  // can watch it run (its page, its trace) without racing it.
  if (argc > 1) wait_for(argv[1], 120);
  const char* entries[] = {
      "rent; \"May\" & 'June'",
      "price $HOME `uname` $(id) *",
      "multi\nline entry",
      "tab\there; backslash \\ end",
  };
  for (int round = 0; round < 3; ++round) {
    for (int k = 0; k < 4; ++k) {
      record("book one.txt", entries[k], 10.5 * (k + 1) + round);
      record("book two.txt", entries[3 - k], -3.25 * (k + round));
    }
    // Scratch name reused every round (WAW/WAR).
    tag_lines("book one.txt", "[one] ", "tagged tmp.txt");
    merge("tagged tmp.txt", "book two.txt",
          ("merged " + std::to_string(round) + ".txt").c_str());
  }
  double total = balance("merged 2.txt");
  int n = 0;
  long chars = 1000;
  count("merged 2.txt", &n, &chars);
  scalars("scalars.txt", 'Z', true, -12345, -2000000000, 9000000000L, 3.25f,
          -1e-300);
  // The master writes a summary itself, after reading a task's output.
  FILE* in = GS_FOpen("merged 0.txt", R);
  int lines = 0;
  for (int c; in && (c = std::fgetc(in)) != EOF;) lines += c == '\n';
  if (in) GS_FClose(in);
  FILE* out = GS_FOpen("summary.txt", W);
  std::fprintf(out, "balance %.2f entries %d chars %ld first-merge-lines %d\n",
               total, n, chars, lines);
  GS_FClose(out);
  record("summary.txt", "after the master's write", 1);
  return GS_Off(0);
}
