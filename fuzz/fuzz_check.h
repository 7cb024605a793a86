// A property a fuzzer checks that does not hold: prints what and aborts, so
// libFuzzer keeps the input as a crash (a plain assert would vanish under
// NDEBUG, and the fuzz build keeps the project's build type).
#ifndef GSRT_FUZZ_FUZZ_CHECK_H_
#define GSRT_FUZZ_FUZZ_CHECK_H_

#include <cstdio>
#include <cstdlib>

#define GS_FUZZ_CHECK(cond)                                               \
  do {                                                                    \
    if (!(cond)) {                                                        \
      std::fprintf(stderr, "%s:%d: fuzz property failed: %s\n", __FILE__, \
                   __LINE__, #cond);                                      \
      std::abort();                                                       \
    }                                                                     \
  } while (0)

#endif  // GSRT_FUZZ_FUZZ_CHECK_H_
