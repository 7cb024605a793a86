// The master of tests/values_test.sh:
//   values            calls every operation of values.idl and checks each
//                     value it gets back against what it computes itself;
//                     prints "values: all N checks passed" and exits 0, or
//                     names the first wrong value and exits 1.
//   values bad-length calls stats with a negative length: gsrt must stop
//                     the program at that call.
#include "values.h"

#include <gs/gs.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

int g_checks = 0;

bool Check(bool ok, const std::string& what) {
  ++g_checks;
  if (!ok) std::fprintf(stderr, "values: wrong %s\n", what.c_str());
  return ok;
}

bool CheckString(const char* got, const std::string& want,
                 const std::string& what) {
  return Check(
      got != nullptr && want == got,
      what + ": got '" + (got ? got : "(null)") + "', want '" + want + "'");
}

}  // namespace

int main(int argc, char** argv) {
  if (GS_On() != 0) return 1;
  if (argc > 1 && std::strcmp(argv[1], "bad-length") == 0) {
    double summary[3];
    int ranks[1] = {0};
    const double samples[1] = {1};
    stats(-1, samples, summary, ranks);
    std::fprintf(stderr, "values: the call with a negative length ran\n");
    return GS_Off(1);
  }
  bool ok = true;

  // Newlines, a backslash and UTF-8 must survive the trip both ways.
  const std::string name = "w\xc3\xb6rld\nline2\\";
  char* greeting = nullptr;
  char* log = strdup("start");
  char* length = greet(name.c_str(), &greeting, &log);
  ok &= CheckString(length, "len=" + std::to_string(name.size()), "return");
  ok &= CheckString(greeting, "hello, " + name + "!", "out string");
  ok &= CheckString(log, "start;greet(" + name + ")", "inout string");
  // Twice: the inout string goes in again, as the last call left it.
  char* again = greet("x", &greeting, &log);
  ok &= CheckString(log, "start;greet(" + name + ");greet(x)", "inout again");
  std::free(again);
  std::free(length);
  std::free(greeting);
  std::free(log);

  const int n = 5;
  const double samples[n] = {3.5, -1, 2.25, 10, 0.1};
  int ranks[n] = {1, 2, 3, 4, 5};
  double summary[3] = {-7, -7, -7};
  stats(n, samples, summary, ranks);
  double sum = 0;
  for (double s : samples) sum += s;
  ok &= Check(summary[0] == -1, "summary[0] (min)");
  ok &= Check(summary[1] == 10, "summary[1] (max)");
  ok &= Check(summary[2] == sum, "summary[2] (sum)");
  for (int i = 0; i < n; ++i) {
    ok &=
        Check(ranks[i] == (i + 1) * 10 + i,
              "ranks[" + std::to_string(i) + "] = " + std::to_string(ranks[i]));
  }
  double t = total(summary);
  ok &= Check(t == summary[0] + summary[1] + summary[2], "total");

  // Which implementation ran depends on the host, so the script checks it
  // (on stderr: the sequential build runs where() itself).
  char* ran = where(1);
  std::fprintf(stderr, "values: where ran '%s'\n", ran);
  std::free(ran);

  if (ok) std::printf("values: all %d checks passed\n", g_checks);
  return GS_Off(ok ? 0 : 1);
}
