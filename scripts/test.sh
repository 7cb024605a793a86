#!/usr/bin/env bash
# Sets up a Debian 12 machine and runs every test: installs packages, builds
# in build/, and runs ctest. Tests that need sshd or Slurm start them
# themselves (ctest fixtures) and stop them at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# GSRT_UNITY_BUILD=ON compiles several sources per compiler run: about half
# the build time on a fresh machine (CI sets it); off by default, since
# changing one file then recompiles its whole batch.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_UNITY_BUILD="${GSRT_UNITY_BUILD:-OFF}"
cmake --build build -j "$(nproc)"
ctest --test-dir build --output-on-failure -j "$(nproc)" --timeout 600 "$@"
