// The master: `tally N [SCALE]` cleans and totals accounts/0.txt ..
// accounts/N-1.txt, merges the totals into report.txt (which it starts
// empty) and stamps the run.
#include "tally.h"

#include <gs/gs.h>

#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 4;
  const int scale = argc > 2 ? std::atoi(argv[2]) : 1;
  if (GS_On() != 0) return 1;
  FILE* report = GS_FOpen("report.txt", W);
  std::fputs("report\n", report);
  GS_FClose(report);
  for (int k = 0; k < n; ++k) {
    std::string raw = "accounts/" + std::to_string(k) + ".txt";
    std::string cleaned = "clean " + std::to_string(k) + ".txt";
    std::string sum = "sum " + std::to_string(k) + ".txt";
    clean(raw.c_str(), cleaned.c_str());
    total(cleaned.c_str(), scale, sum.c_str());
    merge("report.txt", sum.c_str());
  }
  std::printf("report lines %d\n", lines("report.txt"));
  stamp("stamp.txt");
  return GS_Off(0);
}
