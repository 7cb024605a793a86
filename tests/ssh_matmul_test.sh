#!/usr/bin/env bash
# matmul on the master's cores plus three ssh hosts (real sshd instances on
# 127.0.0.2-4, started here): same files as the sequential run, and the
# history shows jobs on every host. With WORKERS, runtime.workers is set to
# it (the agents on the ssh hosts get it as --workers).
#   ssh_matmul_test.sh SOURCE_DIR MATMUL MATMUL_SEQUENTIAL [WORKERS]
set -euo pipefail
src=$1 master=$2 sequential=$3 workers=${4:-}
work=$(mktemp -d)
stop() { bash "$src/tests/testbed/sshd.sh" stop "$work/sshd" >/dev/null 2>&1 || true; rm -rf "$work"; }
trap stop EXIT
GSRT_SSHD_PORT=auto bash "$src/tests/testbed/sshd.sh" start 3 "$work/sshd" >/dev/null
{
  if [ -n "$workers" ]; then printf 'runtime:\n  workers: %s\n' "$workers"; fi
  echo "hosts:"
  echo "  - name: master"
  echo "    adapter: local"
  echo "    slots: 1"
  grep -v '^#' "$work/sshd/gsrt.yaml" | grep -v '^hosts:'
} > "$work/gsrt.yaml"
mkdir "$work/parallel" "$work/sequential"
(cd "$work/parallel" && GSRT_CONFIG="$work/gsrt.yaml" "$master" 4 48) > "$work/out" 2> "$work/err" ||
  { echo "FAIL: matmul exited $?"; cat "$work/err"; exit 1; }
(cd "$work/sequential" && "$sequential" 4 48) > /dev/null
diff -r --exclude=.gsrt "$work/parallel" "$work/sequential" ||
  { echo "FAIL: files differ from the sequential run"; exit 1; }
grep -q "matches the sequential" "$work/out" || { echo "FAIL: matmul says"; cat "$work/out"; exit 1; }
hosts=$(sqlite3 "$work/parallel/.gsrt/history.db" \
  "select group_concat(host, ' ') from (select distinct host from jobs where outcome = 'ok' order by host)")
echo "hosts with jobs: $hosts"
[ "$hosts" = "master node1 node2 node3" ] || { echo "FAIL: not every host ran jobs"; cat "$work/err"; exit 1; }
echo "OK: matmul on local + 3 ssh hosts matches the sequential run${workers:+ (workers: $workers)}"
tail -n 6 "$work/err"
