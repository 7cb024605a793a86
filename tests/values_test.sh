#!/usr/bin/env bash
# Values that come back from the worker (issue 15): tests/values run through
# the local adapter with its real generated worker.
#   values_test.sh VALUES VALUES_SEQUENTIAL MODE [SRC [TESTBED_DIR]]
# MODE:
#   local       out/inout strings, a string return, in/out/inout arrays:
#               every value the master sees is what it computed itself, and
#               the output is the same as the sequential build's.
#               where() ran its 2-core alternative where_wide() (the
#               2-slot host had the cores free).
#   one-slot    the same on a 1-slot host: where() ran itself.
#   ssh         as local, on one real sshd host (slots: 2) through its
#               agent (SRC: the source tree, for tests/testbed/sshd.sh).
#   slurm-job   as local, on a 2-slot Slurm host in job mode (strings and
#               arrays through the batch script's quoting; SRC and the
#               testbed directory for tests/testbed/slurm.sh).
#   bad-length  an array length below zero stops the program at the call,
#               naming the operation, the array and its length parameter.
set -euo pipefail
source "$(dirname "$0")/lib/host_jobs.sh"
values=$1 sequential=$2 mode=$3 src=${4:-} testbed=${5:-}
work=$(mktemp -d)
host="values-$mode-$$"
cleanup() {
  if [ "$mode" = slurm-job ]; then cancel_host_jobs "$host"; fi
  if [ "$mode" = ssh ]; then
    bash "$src/tests/testbed/sshd.sh" stop "$work/sshd" > /dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; tail -20 "$work/err" 2>/dev/null || true; exit 1; }

if [ "$mode" = ssh ]; then
  GSRT_SSHD_PORT=auto bash "$src/tests/testbed/sshd.sh" start 1 "$work/sshd" > /dev/null
  grep -v '^#' "$work/sshd/gsrt.yaml" > "$work/gsrt.yaml"
elif [ "$mode" = slurm-job ]; then
  bash "$src/tests/testbed/slurm.sh" start "$testbed" > /dev/null
  source "$testbed/slurm.env"
  printf 'hosts:\n  - name: %s\n    adapter: slurm\n    mode: job\n    slots: 2\n    shared_fs: true\n' "$host" > "$work/gsrt.yaml"
else
  slots=2
  [ "$mode" = one-slot ] && slots=1
  printf 'hosts:\n  - name: values-%s\n    adapter: local\n    slots: %s\n' \
    "$$" "$slots" > "$work/gsrt.yaml"
fi
mkdir "$work/run"
cd "$work/run"
args=()
[ "$mode" = bad-length ] && args=(bad-length)
status=0
GSRT_CONFIG="$work/gsrt.yaml" timeout 240 "$values" "${args[@]}" \
  > "$work/out" 2> "$work/err" || status=$?

if [ "$mode" = bad-length ]; then
  [ "$status" = 1 ] || fail "a negative array length did not stop the program (exit $status)"
  want="gsrt: operation 'stats': array 'samples' would have -1 elements (parameter 'n'); it may have 0 to 16384. Pass bigger data in a File; stopping the program"
  grep -qF "$want" "$work/err" || fail "message does not name the operation, array and length: $(cat "$work/err")"
  grep -qF "the call with a negative length ran" "$work/err" && fail "the program went on after the call"
  echo "OK: values bad-length"
  exit 0
fi

[ "$status" = 0 ] || fail "master exited $status"
grep -qE '^values: all [0-9]+ checks passed$' "$work/out" || fail "no success line: $(cat "$work/out")"
"$sequential" > "$work/seq_out" 2> "$work/seq_err" || fail "the sequential build failed: $(cat "$work/seq_err")"
cmp -s "$work/out" "$work/seq_out" || fail "output differs from the sequential build's: $(diff "$work/out" "$work/seq_out")"
want=wide
[ "$mode" = one-slot ] && want=narrow
grep -qF "values: where ran '$want 1'" "$work/err" || fail "where() did not run its $want implementation: $(grep 'where ran' "$work/err")"
echo "OK: values $mode ($(cat "$work/out"), where ran $want)"
