#!/usr/bin/env bash
# Compiles every layer of the runtime with clang's thread-safety analysis
# as an error (GSRT_THREAD_SAFETY, runtime/base/thread_annotations.h) in
# build-threads/: the layers' object files only, nothing linked, no tests
# run. A member read without the lock that guards it (GUARDED_BY), or a
# *Locked method called without it (REQUIRES), fails the compile.
#
#   scripts/thread_safety.sh [-b BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-threads
while getopts "b:" opt; do
  case $opt in
    b) build=$OPTARG ;;
    *) echo "usage: scripts/thread_safety.sh [-b BUILD_DIR]" >&2; exit 2 ;;
  esac
done

launcher=()
command -v ccache >/dev/null &&
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# -O0 without debug info: the analysis runs in the front end, so code
# generation is kept as cheap as it gets. Unity: fewer compiler runs.
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_C_FLAGS_DEBUG=-O0 -DCMAKE_CXX_FLAGS_DEBUG=-O0 \
  -DCMAKE_UNITY_BUILD=ON -DGSRT_THREAD_SAFETY=ON \
  -DCMAKE_CXX_FLAGS=-ferror-limit=0 -DGSRT_BUILD_BENCH=OFF "${launcher[@]}" >/dev/null
# Every layer's objects (gsrt_<layer>_objs), the test support included.
mapfile -t layers < <(ninja -C "$build" -t targets all |
  sed -n 's/^\(gsrt_[a-z_]*_objs\): phony$/\1/p' | sort -u)
if [ "${#layers[@]}" -eq 0 ]; then
  echo "thread_safety.sh: no layer object targets found in $build" >&2
  exit 1
fi
echo "thread_safety.sh: ${#layers[@]} layers: ${layers[*]}"
cmake --build "$build" -j "$(nproc)" --target "${layers[@]}"
echo "thread_safety.sh: OK: no thread-safety warnings in ${#layers[@]} layers"
