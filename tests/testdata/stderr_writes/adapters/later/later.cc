// Fixture of tests/stderr_writes_test.sh: a folder not converted yet.
#include <cstdio>

void Later() { std::fputs("gsrt: later\n", stderr); }
