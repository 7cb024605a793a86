#!/usr/bin/env bash
# Ctrl-C on a master stops its running workers (they run in their own
# process groups, so only gsrt can stop them) and the master exits 130;
# with persistent workers or fork servers, no `worker serve` or
# `worker fork-server` process (nor a job it forked) is left either. With
# GSRT (the `gsrt` command), the history says what happened: the stopped
# tasks are cancelled, not failed (issue 36).
#   interrupt_test.sh SCRATCH_MASTER [process|persistent|fork] [GSRT]
set -euo pipefail
master=$1
worker="$master-worker"
mode=${2:-process}
gsrt=${3:-}
work=$(mktemp -d)
source "$(dirname "$0")/lib/own_workers.sh"
our_workers() { own_workers "$worker" "$work"; }
cleanup() { kill_own_workers "$worker" "$work"; rm -rf "$work"; }
trap cleanup EXIT
cd "$work"
printf 'runtime:\n  workers: %s\n' "$mode" > gsrt.yaml
"$master" 4 30000000 > out.txt 2> err.txt &
pid=$!
# Wait (bounded) until workers run.
for _ in $(seq 1 200); do
  [ -n "$(our_workers)" ] && break
  sleep 0.05
done
[ -n "$(our_workers)" ] || { echo "FAIL: no worker started"; cat err.txt; exit 1; }
kill -INT "$pid"
status=0
timeout 20 tail --pid="$pid" -f /dev/null || { echo "FAIL: master did not exit after SIGINT"; exit 1; }
wait "$pid" || status=$?
[ "$status" = 130 ] || { echo "FAIL: master exited $status, expected 130"; cat err.txt; exit 1; }
# A worker told to stop may take a moment to go; bounded.
for _ in $(seq 1 100); do
  [ -z "$(our_workers)" ] && break
  sleep 0.05
done
left=$(our_workers)
if [ -n "$left" ]; then
  echo "FAIL: workers still running after the master was interrupted: $left"
  ps -o pid,ppid,stat,args -p "$(echo $left | tr ' ' ,)" || true
  exit 1
fi
grep -q "interrupted" err.txt || { echo "FAIL: no message"; cat err.txt; exit 1; }
if [ -n "$gsrt" ]; then
  # No task failed: none is listed as failed, the stopped ones as cancelled.
  failed=$("$gsrt" tasks --failed)
  [ "$failed" = "no tasks" ] || { echo "FAIL: gsrt tasks --failed lists tasks of an interrupted run:"; echo "$failed"; exit 1; }
  cancelled=$("$gsrt" tasks --cancelled --json | grep -c '"state": "cancelled"' || true)
  [ "$cancelled" -ge 1 ] || { echo "FAIL: no task recorded as cancelled"; "$gsrt" tasks; exit 1; }
  "$gsrt" runs --json | grep -q '"failed_tasks": 0' || { echo "FAIL: gsrt runs counts failed tasks"; "$gsrt" runs; exit 1; }
  echo "history: $cancelled cancelled tasks, none failed"
fi
echo "OK: interrupted master stopped its workers ($mode mode)"
