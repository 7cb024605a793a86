#!/usr/bin/env bash
# One application run with `policy: POLICY` on the built-in default host
# (the local machine, one slot per core), compared with its sequential
# build (tests/compare_with_sequential.sh). Issue 12: a policy that never
# places a task would hang here until the ctest timeout.
#   policy_run_test.sh SOURCE_DIR POLICY MASTER SEQUENTIAL [ARGS...]
set -euo pipefail
src=$1 policy=$2
shift 2
conf=$(mktemp)
trap 'rm -f "$conf"' EXIT
printf 'runtime:\n  policy: %s\n' "$policy" >"$conf"
GSRT_CONFIG=$conf bash "$src/tests/compare_with_sequential.sh" "$@"
echo "OK: policy $policy"
