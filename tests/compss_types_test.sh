#!/usr/bin/env bash
# COMPSs's C binding type tests interface (stubgen/testdata/
# compss_types.idl, issue 36) run through the local adapter with its real
# generated worker: arrays in, out and inout, and arrays returned by value
# (`long[3] make_long_array(...)`, a malloc'd array on the master). Every
# value the master sees is what it computed itself, and the output is the
# same as the sequential build's.
#   compss_types_test.sh COMPSS_TYPES COMPSS_TYPES_SEQUENTIAL
set -euo pipefail
app=$1 sequential=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; tail -20 "$work/err" 2>/dev/null || true; exit 1; }

printf 'hosts:\n  - name: compss-types-%s\n    adapter: local\n    slots: 2\n' \
  "$$" > "$work/gsrt.yaml"
mkdir "$work/run"
cd "$work/run"
status=0
GSRT_CONFIG="$work/gsrt.yaml" timeout 240 "$app" > "$work/out" 2> "$work/err" \
  || status=$?
[ "$status" = 0 ] || fail "master exited $status"
grep -qE '^compss_types: all [0-9]+ checks passed$' "$work/out" \
  || fail "no success line: $(cat "$work/out")"
grep -qF 'long: {1108511627773, -3, 9000000000}' "$work/out" \
  || fail "the long array make_long_array returned and sum_long_array summed is wrong: $(cat "$work/out")"
"$sequential" > "$work/seq_out" 2> "$work/seq_err" \
  || fail "the sequential build failed: $(cat "$work/seq_err")"
cmp -s "$work/out" "$work/seq_out" \
  || fail "output differs from the sequential build's: $(diff "$work/out" "$work/seq_out")"
echo "OK: compss_types ($(tail -1 "$work/out"))"
