#!/usr/bin/env bash
# The chaos soak (tests/chaos/chaos_soak.sh) on this checkout's build/:
#   scripts/chaos_soak.sh [--rounds N] [--from F] [--seed S] [--round R] [--small] [--keep]
# It starts sshd on 127.0.0.2-4: when other checkouts test on this machine,
# run it under their lock: flock /work/.suite.lock scripts/chaos_soak.sh ...
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
exec bash "$repo/tests/chaos/chaos_soak.sh" "${GSRT_BUILD_DIR:-$repo/build}/examples" "$@"
