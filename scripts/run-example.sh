#!/usr/bin/env bash
# Sets up a Debian 12 machine, builds gsrt and runs the matmul example on
# the local cores (no configuration needed). Arguments go to matmul.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j "$(nproc)" --target matmul
mkdir -p build/run
cd build/run
exec ../examples/matmul "$@"
