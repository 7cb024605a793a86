#!/usr/bin/env bash
# Every policy named on the command line runs a DAG (matmul) on three ssh
# hosts (real sshd instances on 127.0.0.2-4, started once here) and leaves
# the sequential build's files. One line per policy; the first failure
# stops the test with the run's stderr.
#   ssh_policies_test.sh SOURCE_DIR MATMUL MATMUL_SEQUENTIAL POLICY...
set -euo pipefail
src=$1 master=$2 sequential=$3
shift 3
work=$(mktemp -d)
stop() { bash "$src/tests/testbed/sshd.sh" stop "$work/sshd" >/dev/null 2>&1 || true; rm -rf "$work"; }
trap stop EXIT
GSRT_SSHD_PORT=auto bash "$src/tests/testbed/sshd.sh" start 3 "$work/sshd" >/dev/null
mkdir "$work/sequential"
(cd "$work/sequential" && "$sequential" 3 24) > /dev/null
for policy in "$@"; do
  {
    printf 'runtime:\n  policy: %s\n' "$policy"
    grep -v '^#' "$work/sshd/gsrt.yaml"
  } > "$work/gsrt.yaml"
  run=$work/run-$policy
  mkdir "$run"
  start=$SECONDS
  # Bounded: a policy that never places would otherwise hang the suite.
  if ! (cd "$run" && GSRT_CONFIG="$work/gsrt.yaml" timeout 120 "$master" 3 24) > "$work/out" 2> "$work/err"; then
    echo "FAIL: $policy: matmul exited with an error or timed out"; tail -n 20 "$work/err"; exit 1
  fi
  diff -r --exclude=.gsrt "$run" "$work/sequential" ||
    { echo "FAIL: $policy: files differ from the sequential run"; exit 1; }
  hosts=$(sqlite3 "$run/.gsrt/history.db" \
    "select group_concat(host, ' ') from (select distinct host from jobs where outcome = 'ok' order by host)")
  echo "ok: $policy in $((SECONDS - start)) s, jobs on: $hosts"
  rm -rf "$run"
done
echo "OK: $# policies on 3 ssh hosts match the sequential run"
