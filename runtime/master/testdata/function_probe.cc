// A worker-like program for function_identity_test, built in variants that
// each change one thing (PROBE_CHANGE_*): the test checks which functions'
// identities move. Built without -ffunction-sections, so that calls to the
// static helper are resolved by the assembler, with no relocation.
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

__attribute__((noinline)) int Helper(int x) {
#ifdef PROBE_CHANGE_HELPER
  return x * 5 + 1;
#else
  return x * 3 + 1;
#endif
}

const int kTable[8] = {1, 2, 3, 4, 5, 6, 7,
#ifdef PROBE_CHANGE_TABLE
                       9
#else
                       8
#endif
};

}  // namespace

extern "C" {

__attribute__((noinline)) int alpha(int x) {
#ifdef PROBE_CHANGE_ALPHA
  return x * 7 + std::abs(x - 1000);
#else
  return x * 7 + std::abs(x - 100);
#endif
}

__attribute__((noinline)) int beta(int x) { return Helper(x) + Helper(x + 1); }

__attribute__((noinline)) int gamma_says(char* out, int x) {
#ifdef PROBE_CHANGE_STRING
  return std::sprintf(out, "gamma says ho %d", x);
#else
  return std::sprintf(out, "gamma says hi %d", x);
#endif
}

__attribute__((noinline)) int delta(int x) { return kTable[x & 7] + x; }

}  // extern "C"

int main(int argc, char** argv) {
  char buf[64];
  int x = argc > 1 ? std::atoi(argv[1]) : 1;
  int sum = alpha(x) + beta(x) + gamma_says(buf, x) + delta(x);
  std::printf("%d %s\n", sum, buf);
  return 0;
}
