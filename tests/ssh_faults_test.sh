#!/usr/bin/env bash
# End-to-end faults on the master plus three real sshd hosts, each run
# ending with the sequential run's files (byte for byte):
#   crash  step (2, 1) aborts on its first attempt: an application failure,
#          retried once (runtime.retries.app), charged to no host;
#   hang   step (2, 1) hangs on its first attempt: killed at its timeout
#          (runtime.timeout.step), retried (runtime.retries.timeout);
#   stop   node2 and everything under it are SIGSTOPped mid-run, while a
#          job runs there: it turns suspect, is given up after missed
#          heartbeats, its work is redone elsewhere; then SIGCONT: the run
#          still finishes.
#   ssh_faults_test.sh SOURCE_DIR FAULTS FAULTS_SEQUENTIAL MODE
set -euo pipefail
src=$1 master=$2 sequential=$3 mode=$4
testbed="$src/tests/testbed/sshd.sh"
work=$(mktemp -d)
stopped=
stop() {
  [ -n "$stopped" ] && kill -CONT $stopped 2>/dev/null || true
  [ -n "${pid:-}" ] && kill -KILL "$pid" 2>/dev/null || true
  bash "$testbed" stop "$work/sshd" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap stop EXIT
fail() { echo "FAIL ($mode): $*"; tail -30 "$work/err" 2>/dev/null || true; exit 1; }
GSRT_SSHD_PORT=auto bash "$testbed" start 3 "$work/sshd" >/dev/null
{
  echo "runtime:"
  echo "  heartbeat: 1"
  echo "  retries: {app: 1, timeout: 1, backoff: 0.2}"
  echo "  timeout: {step: 4}"
  echo "hosts:"
  echo "  - name: master"
  echo "    adapter: local"
  echo "    slots: 1"
  grep -v '^#' "$work/sshd/gsrt.yaml" | grep -v '^hosts:'
} > "$work/gsrt.yaml"
switches="$work/switches"
mkdir "$work/parallel" "$work/sequential" "$switches"
width=8 levels=6 work_ms=150
case $mode in
  crash) touch "$switches/crash-2-1" ;;
  hang) touch "$switches/hang-2-1" ;;
  stop) ;;
  *) echo "unknown mode $mode"; exit 2 ;;
esac
(cd "$work/sequential" && "$sequential" $width $levels 0) > /dev/null
cd "$work/parallel"
GSRT_CONFIG="$work/gsrt.yaml" "$master" $width $levels $work_ms "$switches" > "$work/out" 2> "$work/err" &
pid=$!
if [ "$mode" = stop ]; then
  # Wait until a job is in flight on node2 and freeze node2 with the
  # job's end unreported (its agent is stopped first, with a worker child
  # that it has not reaped): the master is waiting for that job, so it
  # cannot miss the hang. Bounded by the run itself and by 2.5 minutes
  # (the hosts connect first: a few remote commands each).
  agent="$work/sshd/host2/work/bin/gsrt-agent --workdir"
  worker="$(basename "$master")-worker"
  for _ in $(seq 1 3000); do
    kill -0 "$pid" 2>/dev/null || break
    # (Not before its agent runs: no freezing in the middle of its setup.)
    pgrep -f -- "$agent" >/dev/null &&
      stopped=$(bash "$testbed" freeze "$work/sshd" 2 "$agent" "$worker") && break
    stopped=
    sleep 0.05
  done
  [ -n "$stopped" ] || fail "node2 never ran a job"
  echo "stopped node2 with a job in flight there: $(echo $stopped | wc -w) processes"
  # Resume it once the master gave it up (bounded).
  for _ in $(seq 1 400); do
    grep -q "host node2 was lost" "$work/err" && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  grep -q "host node2 was lost" "$work/err" || fail "the master did not give node2 up"
  kill -CONT $stopped
  stopped=
  echo "resumed node2"
fi
status=0
timeout 200 tail --pid="$pid" -f /dev/null || fail "the run did not finish"
wait "$pid" || status=$?
pid=
[ "$status" = 0 ] || fail "faults exited $status"
diff -r --exclude=.gsrt "$work/parallel" "$work/sequential" > /dev/null ||
  fail "files differ from the sequential run"
db="$work/parallel/.gsrt/history.db"
q() { sqlite3 "$db" "$1"; }
case $mode in
  crash)
    [ -e "$switches/crashed-2-1" ] || fail "the crash switch was never hit"
    [ "$(q "select count(*) from jobs where outcome = 'app'")" = 1 ] || fail "expected one application failure in the history"
    [ "$(q "select count(*) from host_failures")" = 0 ] || fail "an application failure was charged to a host"
    ;;
  hang)
    [ -e "$switches/hung-2-1" ] || fail "the hang switch was never hit"
    [ "$(q "select count(*) from jobs where outcome = 'timeout'")" = 1 ] || fail "expected one timeout in the history"
    ;;
  stop)
    grep -q "host node2 is suspect" "$work/err" || fail "node2 was never reported suspect"
    [ "$(q "select count(*) from host_failures where host = 'node2'")" -ge 1 ] || fail "no infrastructure failure recorded for node2"
    ;;
esac
# No task completed twice: one successful job per task (no replication here).
dup=$(q "select count(*) from (select task_id from jobs where outcome = 'ok' group by run_id, task_id having count(*) > 1)")
[ "$mode" = stop ] || [ "$dup" = 0 ] || fail "$dup tasks completed twice"
# GS_Off removes the run's copies on the hosts (a host given up keeps
# what it held: stop mode).
if [ "$mode" != stop ]; then
  left=$(find "$work"/sshd/host*/work/data -type f 2>/dev/null | head -3)
  [ -z "$left" ] || fail "copies left on the hosts after GS_Off: $left"
fi
grep "suspect\|was lost\|is back\|failed after\|tasks in\|jobs on" "$work/err" || true
echo "OK: $mode: the run finished with the sequential run's files"
