// Fixture of tests/stderr_writes_test.sh: a program's main may write to
// stderr.
#include <cstdio>

int main() { std::fprintf(stderr, "usage: demo\n"); }
