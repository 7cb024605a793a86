#!/usr/bin/env bash
# The two ways a master stops before GS_Off, worded apart (issue 13):
#   sync     a synchronous call whose task was not run (its input's writer
#            threw): the message names the task, the missing file, the
#            failed task behind it and the call, and says what to do;
#   sigterm  the master gets SIGTERM while a job runs: "interrupted by
#            SIGTERM; no task failed", never a task's failure.
#   stop_messages_test.sh FAULTS_MASTER sync|sigterm
set -euo pipefail
master=$1
scenario=$2
worker="$master-worker"
work=$(mktemp -d)
source "$(dirname "$0")/lib/own_workers.sh"
our_workers() { own_workers "$worker" "$work"; }
cleanup() { kill_own_workers "$worker" "$work"; rm -rf "$work"; }
trap cleanup EXIT
cd "$work"
mkdir switches
printf 'runtime:\n  retries: {app: 0}\nhosts:\n  - name: local\n    adapter: local\n    slots: 2\n' > gsrt.yaml
export GSRT_CONFIG="$work/gsrt.yaml"
fail() { echo "FAIL ($scenario): $1"; echo "--- stderr:"; cat err.txt; exit 1; }
status=0
case "$scenario" in
  sync)
    touch switches/throw-1-0
    timeout 120 "$master" 2 2 0 "$work/switches" sync > out.txt 2> err.txt || status=$?
    [ "$status" = 1 ] || fail "exited $status, expected 1"
    ! grep -q '^lines:' out.txt || fail "the code after the call ran"
    grep -q '^gsrt: stopping the program: task [0-9]* (lines) was not run: col0-2.txt was never written because task [0-9]* (step) failed, so the call lines(col0-2.txt) has no value to return' err.txt ||
      fail "the stop does not say what happened"
    grep -q 'fix the cause and run the program again' err.txt || fail "the stop does not say what to do"
    ! grep -q 'SIGTERM\|interrupted' err.txt || fail "a failure worded as an interruption"
    ;;
  sigterm)
    touch switches/hang-1-0
    "$master" 2 2 0 "$work/switches" sync > out.txt 2> err.txt &
    pid=$!
    # Wait (bounded) until the hanging step runs: it leaves its marker just
    # before it sleeps.
    for _ in $(seq 1 200); do
      [ -e switches/hung-1-0 ] && break
      sleep 0.05
    done
    [ -e switches/hung-1-0 ] || { kill -KILL "$pid"; fail "the hanging step never started"; }
    kill -TERM "$pid"
    timeout 20 tail --pid="$pid" -f /dev/null || { kill -KILL "$pid"; fail "master did not exit after SIGTERM"; }
    wait "$pid" || status=$?
    [ "$status" = 143 ] || fail "exited $status, expected 143"
    grep -q '^gsrt: stopping the program: interrupted by SIGTERM; no task failed. Stopped [0-9]* running jobs' err.txt ||
      fail "the stop does not say it was SIGTERM"
    ! grep -q 'was not run\|has no value to return' err.txt || fail "an interruption worded as a failure"
    ;;
  *) echo "unknown scenario $scenario"; exit 2 ;;
esac
echo "OK: stop message ($scenario)"
