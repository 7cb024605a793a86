#!/usr/bin/env bash
# Whole runs on the local Slurm testbed (tests/testbed/slurm.sh, started
# here if it is not running):
#   slurm_run_test.sh SRC TESTBED_DIR SCENARIO MATMUL MATMUL_SEQ SCRATCH
# SCENARIO:
#   matmul-job, matmul-pilot, matmul-pbs  matmul gives the sequential
#       run's files; jobs ran on the batch host; queue waits recorded;
#       nothing of the run is left in the queue.
#   scancel-job    a queued batch job is cancelled from outside (scancel):
#       the run still finishes with the sequential files, and the history
#       has an infrastructure failure of the host.
#   kill-pilot     a pilot's agent is SIGKILLed while it runs a worker:
#       the same.
#   interrupt-job, interrupt-pilot   SIGINT to the master while its batch
#       jobs run: it exits 130 and its jobs and pilots leave the queue; the
#       next run is not offered those cancelled jobs to take over.
set -euo pipefail
src=$1 testbed=$2 scenario=$3 matmul=$4 sequential=$5 scratch=$6
source "$src/tests/lib/host_jobs.sh"
work=$(mktemp -d)
pid=
cleanup() {
  [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null || true
  # Whatever this run left in the queue (its host name is unique to it).
  [ -n "${SLURM_CONF:-}" ] && scancel --quiet --name="$(queue_names | tr '\n' ',' )" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
bash "$src/tests/testbed/slurm.sh" start "$testbed" > /dev/null
source "$testbed/slurm.env"

host="t-$scenario-$$"
adapter=slurm mode=job extra=""
case $scenario in
  matmul-pilot|kill-pilot|interrupt-pilot) mode=pilot ;;
  matmul-pbs) adapter=pbs ;;
esac
case $scenario in
  matmul-pilot) extra="    pilots: 2" ;;
  kill-pilot) extra="    pilots: 2" ;;
esac
write_batch_config "$work/gsrt.yaml" "$host" "$adapter" "$mode" "$extra"
# This run's jobs in the queue (pilots are named gsrt-pilot-HOST-...).
queue_names() { squeue -h -o '%j' 2>/dev/null | grep -e "^gsrt-$host-" -e "^gsrt-pilot-$host-" || true; }
queue_count() { queue_names | wc -l; }

mkdir "$work/parallel" "$work/sequential"
run_master() {  # run_master PROGRAM ARGS... (in the background)
  cd "$work/parallel"
  GSRT_CONFIG="$work/gsrt.yaml" "$@" > "$work/out" 2> "$work/err" &
  pid=$!
  cd - > /dev/null
}
finish() {  # waits for the master; its exit status in $status
  status=0
  timeout 300 tail --pid="$pid" -f /dev/null || { echo "FAIL: the run did not finish"; tail -20 "$work/err"; exit 1; }
  wait "$pid" || status=$?
  pid=
}
check_files() {
  [ "$status" = 0 ] || { echo "FAIL: master exited $status"; tail -20 "$work/err"; exit 1; }
  diff -r --exclude=.gsrt "$work/parallel" "$work/sequential" > /dev/null ||
    { echo "FAIL: files differ from the sequential run"; tail -20 "$work/err"; exit 1; }
}
history() { sqlite3 "$work/parallel/.gsrt/history.db" "$1"; }
check_queue_empty() {
  local n
  for _ in $(seq 1 100); do
    n=$(queue_count); [ "$n" = 0 ] && return 0; sleep 0.1
  done
  echo "FAIL: $n batch jobs of the run are still in the queue:"; squeue; exit 1
}

case $scenario in
  matmul-job|matmul-pilot|matmul-pbs)
    (cd "$work/sequential" && "$sequential" 3 32) > /dev/null
    run_master "$matmul" 3 32
    finish
    check_files
    grep -q "matches the sequential" "$work/out" || { echo "FAIL: matmul says"; cat "$work/out"; exit 1; }
    jobs=$(history "select count(*) from jobs where host = '$host' and outcome = 'ok'")
    waits=$(history "select count(*) from queue_waits where host = '$host'")
    mean=$(history "select printf('%.2f', avg(started - submitted)) from queue_waits where host = '$host'")
    [ "$jobs" -ge 36 ] || { echo "FAIL: only $jobs jobs on $host"; exit 1; }
    [ "$waits" -ge 1 ] || { echo "FAIL: no queue waits recorded"; exit 1; }
    check_queue_empty
    left=$(ls -d "$work/parallel/.gsrt/hosts/$host"/batch-* 2>/dev/null || true)
    [ -z "$left" ] || { echo "FAIL: job files left behind: $left"; exit 1; }
    echo "OK: matmul on $adapter ($mode mode) matches the sequential run: $jobs jobs, $waits queue waits (mean ${mean} s)"
    ;;
  scancel-job)
    (cd "$work/sequential" && "$sequential" 3 32) > /dev/null
    run_master "$matmul" 3 32
    # A batch job still waiting for a CPU (6 slots, 2 CPUs): it never ran,
    # so it can leave no exit record.
    pending() { victim=$(squeue -h -r -t PENDING -o '%i %j' | grep " gsrt-$host-" | head -n 1 | cut -d' ' -f1); [ -n "$victim" ]; }
    wait_for 120 pending || { echo "FAIL: no pending batch job seen"; tail "$work/err"; exit 1; }
    scancel "$victim"
    echo "cancelled batch job $victim from outside"
    finish
    check_files
    failures=$(history "select count(*) from host_failures where host = '$host'")
    lost=$(history "select count(*) from jobs where host = '$host' and outcome = 'infra'")
    [ "$failures" -ge 1 ] || { echo "FAIL: no infrastructure failure recorded"; tail "$work/err"; exit 1; }
    history "select detail from host_failures where host = '$host'" | head -n 2
    check_queue_empty
    echo "OK: a batch job cancelled from outside was recovered ($failures host failures, $lost jobs lost)"
    ;;
  kill-pilot)
    (cd "$work/sequential" && "$sequential" 4 160) > /dev/null
    run_master "$matmul" 4 160
    # A pilot's agent with a worker running under it.
    busy() {
      local a
      for a in $(pgrep -f -- "--pilot $host-p0 " || true); do
        if pgrep -P "$a" > /dev/null; then agent=$a; return 0; fi
      done
      return 1
    }
    wait_for 120 busy || { echo "FAIL: pilot $host-p0 never ran a worker"; tail "$work/err"; exit 1; }
    kill -KILL "$agent" $(pgrep -P "$agent") 2>/dev/null || true
    echo "killed pilot $host-p0 (agent $agent) while it ran a worker"
    finish
    check_files
    failures=$(history "select count(*) from host_failures where host = '$host'")
    [ "$failures" -ge 1 ] || { echo "FAIL: no infrastructure failure recorded"; tail "$work/err"; exit 1; }
    history "select detail from host_failures where host = '$host'" | head -n 2
    check_queue_empty
    echo "OK: a pilot killed mid-task was recovered ($failures host failures)"
    ;;
  interrupt-job|interrupt-pilot)
    run_master "$scratch" 4 30000000
    running() { squeue -h -t RUNNING -o '%j' | grep -e "^gsrt-$host-" -e "^gsrt-pilot-$host-" > /dev/null; }
    wait_for 120 running || { echo "FAIL: no batch job started"; tail "$work/err"; exit 1; }
    # Other tests run the same worker binary at once: ours run under $work.
    source "$src/tests/lib/own_workers.sh"
    our_workers() { own_workers "$scratch-worker" "$work"; }
    # Interrupt once a worker of this run is at work (a pilot has taken a
    # job), so that the check below has something to see die.
    have_workers() { [ -n "$(our_workers)" ]; }
    wait_for 120 have_workers || { echo "FAIL: no worker of this run started under $work"; tail "$work/err"; exit 1; }
    before=$(queue_count)
    kill -INT "$pid"
    finish
    [ "$status" = 130 ] || { echo "FAIL: master exited $status, expected 130"; tail "$work/err"; exit 1; }
    check_queue_empty
    # Workers die with their agent (PR_SET_PDEATHSIG) a moment after it.
    gone_by=$((SECONDS + 15))
    while [ -n "$(our_workers)" ] && ((SECONDS < gone_by)); do sleep 0.1; done
    if [ -n "$(our_workers)" ]; then
      echo "FAIL: workers still running after the interrupt: $(our_workers)"; exit 1
    fi
    # The cancelled jobs are not offered to the next run (issue 36): the
    # history keeps no batch job of the run, and a run started again says
    # nothing of taking jobs over.
    left=$(history "select count(*) from batch_jobs")
    [ "$left" = 0 ] || { echo "FAIL: $left batch jobs still recorded after the interrupt"; history "select * from batch_jobs"; exit 1; }
    run_master "$scratch" 1 1000
    finish
    [ "$status" = 0 ] || { echo "FAIL: the run after the interrupt exited $status"; tail "$work/err"; exit 1; }
    if grep -q "may still be queued" "$work/err"; then
      echo "FAIL: the next run offers to take over cancelled jobs:"; cat "$work/err"; exit 1
    fi
    check_queue_empty
    echo "OK: interrupted master ($mode mode) removed its $before batch jobs from the queue"
    ;;
  *) echo "unknown scenario $scenario"; exit 2 ;;
esac
