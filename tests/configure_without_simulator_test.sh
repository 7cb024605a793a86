#!/usr/bin/env bash
# The Spack recipe's ~simulator: a build configured without the simulator,
# the tests and the benchmarks does not look for GLPK (nor GoogleTest,
# Google Benchmark); the simulator off with the tests on is refused with
# the reason.
#   configure_without_simulator_test.sh SOURCE_DIR
set -euo pipefail
src=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake -S "$src" -B "$work/bare" -G Ninja -DGSRT_BUILD_SIM=OFF -DGSRT_BUILD_TESTS=OFF \
  -DGSRT_BUILD_BENCH=OFF -DGSRT_MAN_PAGES=OFF > "$work/bare.log" 2>&1 ||
  { cat "$work/bare.log"; echo "FAIL: configuring without the simulator"; exit 1; }
for looked_for in GLPK_LIBRARY GTest_DIR benchmark_DIR; do
  ! grep -q "^$looked_for:" "$work/bare/CMakeCache.txt" ||
    { echo "FAIL: $looked_for was looked for"; exit 1; }
done
grep -q '"gsrt-sim"\|gsrt-sim' "$work/bare/build.ninja" &&
  { echo "FAIL: gsrt-sim is still built"; exit 1; }
if cmake -S "$src" -B "$work/refused" -G Ninja -DGSRT_BUILD_SIM=OFF \
     -DGSRT_BUILD_TESTS=ON > "$work/refused.log" 2>&1; then
  echo "FAIL: the simulator off with the tests on was accepted"; exit 1
fi
grep -q "GSRT_BUILD_SIM=OFF needs GSRT_BUILD_TESTS=OFF" "$work/refused.log" ||
  { cat "$work/refused.log"; echo "FAIL: no reason given"; exit 1; }
echo "OK: configured without the simulator, GLPK, GoogleTest or Google Benchmark"
