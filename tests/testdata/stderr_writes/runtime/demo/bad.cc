// Fixture of tests/stderr_writes_test.sh: a write to stderr that
// clang-format wrapped over two lines.
#include <cstdio>

void Bad() {
  std::fprintf(
      stderr, "gsrt: a message that should have gone through the sink\n");
}
