#!/usr/bin/env bash
# `gsrt testbed` as a user tries it (issue 36, point 11): start 2 sshd
# hosts, run matmul with the gsrt.yaml it wrote (host keys checked against
# its known_hosts, key login), every job on those two hosts and the files
# the sequential run's; status says both answer; stop leaves none of their
# processes. Also its refusals: nothing to start; --slurm when not root.
#
#   ssh_testbed_test.sh GSRT MATMUL MATMUL_SEQUENTIAL
set -euo pipefail
gsrt=$(realpath "$1") master=$(realpath "$2") sequential=$(realpath "$3")
work=$(mktemp -d)
tb=$work/testbed
pid=
cleanup() {
  [ -z "$pid" ] || kill -KILL "$pid" 2>/dev/null || true
  "$gsrt" testbed stop --dir "$tb" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }

status=0
"$gsrt" testbed start --ssh 2 --dir "$tb" > "$work/start.out" 2>&1 || status=$?
[ "$status" = 0 ] || { cat "$work/start.out"; fail "gsrt testbed start exited $status"; }
cat "$work/start.out"
for want in "node1  ssh host 127.0.0.2" "node2  ssh host 127.0.0.3" \
    "config: $tb/gsrt.yaml" "stop:   gsrt testbed stop --dir $tb"; do
  grep -qF "$want" "$work/start.out" || fail "start does not print '$want'"
done
[ "$(grep -c 'adapter: ssh' "$tb/gsrt.yaml")" = 2 ] || fail "gsrt.yaml does not name 2 ssh hosts"
grep -q "known_hosts: $tb/" "$tb/gsrt.yaml" || fail "gsrt.yaml names no known_hosts of the testbed"
grep -qi password "$tb/gsrt.yaml" && fail "gsrt.yaml holds a password"
[ "$(grep -c 'ssh-ed25519' "$tb/ssh/known_hosts")" = 2 ] || fail "known_hosts does not hold both host keys"
"$gsrt" testbed status --dir "$tb" > "$work/status.out" ||
  { cat "$work/status.out"; fail "status says a host does not answer"; }
[ "$(grep -c ' up$' "$work/status.out")" = 2 ] || { cat "$work/status.out"; fail "status does not show 2 hosts up"; }

mkdir "$work/parallel" "$work/sequential"
(cd "$work/sequential" && "$sequential" 3 24) > /dev/null
(cd "$work/parallel" && GSRT_CONFIG="$tb/gsrt.yaml" exec "$master" 3 24) \
  > "$work/out" 2> "$work/err" &
pid=$!
timeout 240 tail --pid="$pid" -f /dev/null || { tail -n 20 "$work/err"; fail "matmul did not end within 240 s"; }
status=0
wait "$pid" || status=$?
pid=
[ "$status" = 0 ] || { tail -n 20 "$work/err"; fail "matmul exited $status on the testbed's hosts"; }
diff -r --exclude=.gsrt "$work/parallel" "$work/sequential" || fail "files differ from the sequential run"
hosts=$(sqlite3 "$work/parallel/.gsrt/history.db" \
  "select group_concat(host, ' ') from (select distinct host from jobs where outcome = 'ok' order by host)")
[ "$hosts" = "node1 node2" ] || fail "jobs ran on '$hosts', not on node1 and node2"
echo "matmul ran on: $hosts"

# What runs: the listeners and everything below them.
procs=()
for i in 1 2; do
  procs+=("$(cat "$tb/ssh/host$i/sshd.pid")")
  mapfile -t -O "${#procs[@]}" procs < <(bash "$(dirname "$0")/testbed/sshd.sh" below "$tb/ssh" "$i")
done
"$gsrt" testbed stop --dir "$tb" > "$work/stop.out" 2>&1 || status=$?
[ "$status" = 0 ] || { cat "$work/stop.out"; fail "stop exited $status"; }
grep -q "stopped everything under $tb" "$work/stop.out" || { cat "$work/stop.out"; fail "stop does not say so"; }
for p in "${procs[@]}"; do
  [ -n "$p" ] || continue
  ! kill -0 "$p" 2>/dev/null || fail "process $p of the testbed still runs after stop"
done
"$gsrt" testbed status --dir "$tb" > /dev/null 2>&1 && fail "status succeeds after stop"

# Refusals, with their reasons.
out=$("$gsrt" testbed start --ssh 0 --dir "$work/none" 2>&1) && fail "start with nothing to start succeeded"
grep -q "nothing to start" <<< "$out" || fail "no reason for nothing to start: $out"
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null; then
  out=$(cd / && setpriv --reuid=65534 --regid=65534 --clear-groups \
    "$gsrt" testbed start --slurm --dir /nonexistent/tb 2>&1) && fail "--slurm as nobody succeeded"
  grep -q "needs root" <<< "$out" || fail "--slurm as nobody does not say it needs root: $out"
fi
echo "OK: gsrt testbed: 2 ssh hosts started, matmul ran on both (${#procs[@]} processes), all gone after stop"
