#!/usr/bin/env bash
# Host labels and runtime.hosts (issue 29, part 2): under every policy named
# on the command line, matmul runs on a local host and two ssh hosts (real
# sshd on 127.0.0.2-3) with multiply_accumulate kept to the host labelled
# gpu and fill_block to the local host or the one labelled bigmem. Each run
# must leave the sequential build's files, and the history must show each
# kept operation on its hosts only (and the free one anywhere). One line
# per policy; the first failure stops the test with the run's stderr.
#   labels_test.sh SOURCE_DIR MATMUL MATMUL_SEQUENTIAL POLICY...
set -euo pipefail
src=$1 master=$2 sequential=$3
shift 3
work=$(mktemp -d)
stop() { bash "$src/tests/testbed/sshd.sh" stop "$work/sshd" >/dev/null 2>&1 || true; rm -rf "$work"; }
trap stop EXIT
GSRT_SSHD_PORT=auto bash "$src/tests/testbed/sshd.sh" start 2 "$work/sshd" >/dev/null
mkdir "$work/sequential"
(cd "$work/sequential" && "$sequential" 3 24) > /dev/null
hosts() {
  sqlite3 "$1/.gsrt/history.db" \
    "select group_concat(host, ' ') from (select distinct host from jobs
     where outcome = 'ok' and operation = '$2' order by host)"
}
for policy in "$@"; do
  {
    printf 'runtime:\n  policy: %s\n' "$policy"
    printf '  hosts:\n    multiply_accumulate: [gpu]\n    fill_block: [here, bigmem]\n'
    grep -v '^#' "$work/sshd/gsrt.yaml" |
      sed -e '/name: node1/a\    labels: [gpu, site-b]' \
          -e '/name: node2/a\    labels: bigmem'
    printf '  - {name: here, adapter: local, slots: 2}\n'
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
  multiply=$(hosts "$run" multiply_accumulate)
  fill=$(hosts "$run" fill_block)
  zero=$(hosts "$run" zero_block)
  [[ $multiply == node1 ]] ||
    { echo "FAIL: $policy: multiply_accumulate ran on '$multiply', not on node1 (gpu) alone"; exit 1; }
  for h in $fill; do
    [[ $h == here || $h == node2 ]] ||
      { echo "FAIL: $policy: fill_block ran on $h (kept to here and bigmem)"; exit 1; }
  done
  [[ -n $fill && -n $zero ]] ||
    { echo "FAIL: $policy: fill_block or zero_block ran nowhere"; exit 1; }
  echo "ok: $policy in $((SECONDS - start)) s: multiply_accumulate on $multiply, fill_block on $fill, zero_block on $zero"
  rm -rf "$run"
done
echo "OK: $# policies kept each operation to its labelled hosts"
