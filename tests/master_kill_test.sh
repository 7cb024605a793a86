#!/usr/bin/env bash
# Two things a master must never leave behind (issue 12):
# 1. a second master in a directory where one runs: it refuses at GS_On,
#    naming the first's pid and what to do, and touches nothing;
#    the first ends with the sequential result;
# 2. a master killed with SIGKILL: its workers die with it (they ask the
#    kernel for PR_SET_PDEATHSIG) instead of writing on into .gsrt.
#   master_kill_test.sh SCRATCH_MASTER
set -euo pipefail
master=$1
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work"
printf 'hosts:\n  - name: local\n    adapter: local\n    slots: 2\n' > gsrt.yaml
export GSRT_CONFIG="$work/gsrt.yaml"

# --- 1. two masters in one directory ---
# The second starts once the first holds the work dir (its pid in the lock
# file), so the run does not depend on which process the kernel runs first.
"$master" 4 200000 > out.a 2> err.a & a=$!
pids+=("$a")
for _ in $(seq 1 400); do
  [ "$(cat .gsrt/lock 2>/dev/null)" = "$a" ] && break
  kill -0 "$a" 2>/dev/null || break
  sleep 0.05
done
[ "$(cat .gsrt/lock 2>/dev/null)" = "$a" ] ||
  { echo "FAIL: the first master did not take the lock"; cat err.a; exit 1; }
"$master" 4 200000 > out.b 2> err.b & b=$!
pids+=("$b")
loser=b winner=a winner_pid=$a loser_pid=$b
status=0; wait "$loser_pid" || status=$?
[ "$status" != 0 ] || { echo "FAIL: the refused master exited 0"; exit 1; }
grep -q "another master (pid $winner_pid)" "err.$loser" ||
  { echo "FAIL: the refusal does not name pid $winner_pid"; cat "err.$loser"; exit 1; }
grep -q "runtime.work_dir" "err.$loser" ||
  { echo "FAIL: the refusal does not say what to do"; cat "err.$loser"; exit 1; }
status=0; timeout 120 tail --pid="$winner_pid" -f /dev/null || true
wait "$winner_pid" || status=$?
[ "$status" = 0 ] || { echo "FAIL: the first master exited $status"; tail "err.$winner"; exit 1; }
grep -q "matches the sequential" "out.$winner" ||
  { echo "FAIL: the first master's result is wrong"; cat "out.$winner"; exit 1; }
echo "second master refused with the first's pid; the first finished right"

# --- 2. kill -9 of the master ---
"$master" 4 30000000 > out.k 2> err.k & k=$!
pids+=("$k")
workers=""
for _ in $(seq 1 400); do
  workers=$(pgrep -P "$k" || true)
  [ -n "$workers" ] && break
  sleep 0.05
done
[ -n "$workers" ] || { echo "FAIL: no worker started"; cat err.k; exit 1; }
kill -KILL "$k"
wait "$k" 2>/dev/null || true
left=""
for _ in $(seq 1 200); do
  left=""
  for w in $workers; do kill -0 "$w" 2>/dev/null && left="$left $w"; done
  [ -z "$left" ] && break
  sleep 0.05
done
if [ -n "$left" ]; then
  for w in $left; do kill -KILL "$w" 2>/dev/null || true; done
  echo "FAIL: workers$left outlived their SIGKILLed master"; exit 1
fi
echo "OK: one master per work dir; workers die with their master"
