#!/usr/bin/env bash
# A master SIGKILLed while its batch jobs are queued and running, then
# started again in the same directory, takes those jobs over instead of
# running their tasks again (docs/design.md, "Resume"):
#   batch_reattach_test.sh SRC TESTBED_DIR SCENARIO SCRATCH SCRATCH_SEQ
# SCENARIO:
#   job        Slurm job mode: killed while array elements run and others
#       wait; the restarted run ends with the sequential run's files, and
#       Slurm itself (scontrol, independent of gsrt) shows exactly one
#       completed batch job per task across both runs; the history records
#       the jobs taken over.
#   job-lost   the same, and a waiting element is cancelled (scancel) while
#       no master runs: the restarted run sees it gone without an exit
#       record and runs its task again (still one completed job per task).
#   pbs        job mode through the PBS commands (qsub/qstat/qdel): the
#       same checks as `job`.
#   pilot      pilot mode: killed while pilots run tasks and another pilot
#       waits in the queue; the running pilots keep their jobs, come back
#       to the restarted master (which rewrote their token file) and hand
#       their jobs over; the waiting one is taken over too, keeping its
#       place in the queue (the restarted master submits no pilot). The run
#       ends with the sequential run's files, and the worker, wrapped to
#       count its own starts (one process per job), ran exactly once per
#       task.
set -euo pipefail
src=$1 testbed=$2 scenario=$3 scratch=$4 sequential=$5
source "$src/tests/lib/host_jobs.sh"
work=$(mktemp -d)
pid=
host="t-reattach-$scenario-$$"
cleanup() {
  [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null || true
  if [ -n "${SLURM_CONF:-}" ]; then
    cancel_host_jobs "$host"
    cancel_host_jobs "pilot-$host"
  fi
  rm -rf "$work"
}
trap cleanup EXIT
bash "$src/tests/testbed/slurm.sh" start "$testbed" > /dev/null
source "$testbed/slurm.env"

adapter=slurm mode=job extra=""
case $scenario in
  job|job-lost) ;;
  pbs) adapter=pbs ;;
  pilot) mode=pilot extra="    pilots: 3" ;;
  *) echo "unknown scenario $scenario"; exit 2 ;;
esac
write_batch_config "$work/gsrt.yaml" "$host" "$adapter" "$mode" "$extra"
if [ "$scenario" = pilot ]; then
  # One worker process per job, each start counted by a wrapper.
  sed -i 's/^runtime:$/runtime:\n  workers: process/' "$work/gsrt.yaml"
  printf '#!/bin/sh\necho "$$ $*" >> %q\nexec %q "$@"\n' \
    "$work/worker-starts" "$scratch-worker" > "$work/count-worker"
  chmod +x "$work/count-worker"
  export GSRT_WORKER="$work/count-worker"
fi
steps=6 samples=300000
# Pilots run these at once, and PBS jobs go out one qsub at a time (no
# arrays): longer tasks, so that jobs still run and wait when the kill lands.
case $scenario in pilot|pbs) samples=3000000 ;; esac
tasks=$((3 * steps))  # simulate, reduce, collect per step
mkdir "$work/parallel" "$work/sequential"
(cd "$work/sequential" && "$sequential" $steps $samples) > /dev/null
db="$work/parallel/.gsrt/history.db"
history() { sqlite3 "$db" "$1" 2>/dev/null || echo 0; }
start_master() {  # start_master RUN
  (cd "$work/parallel" && GSRT_CONFIG="$work/gsrt.yaml" exec "$scratch" $steps $samples) \
    > "$work/out$1" 2> "$work/err$1" &
  pid=$!
}
# This test's batch jobs in the queue, as "ID STATE" (array elements apart).
queue() { squeue -h -r -o '%i %T %j' 2>/dev/null | awk -v h="$host" 'index($3, "gsrt-" h "-") == 1 || index($3, "gsrt-pilot-" h "-") == 1 { print $1, $2 }'; }
count_state() { queue | awk -v s="$1" '$2 == s' | wc -l; }

# --- Run 1, SIGKILLed once jobs run and others wait, all recorded. ---
start_master 1
if [ "$scenario" = pilot ]; then
  # A pilot with a worker at work, and a pilot still waiting (3 pilots of
  # one CPU each on 2 CPUs).
  source "$src/tests/lib/own_workers.sh"
  busy() { [ -n "$(own_workers "$scratch-worker" "$work")" ] && [ "$(count_state PENDING)" -ge 1 ] &&
           [ "$(history "select count(*) from batch_jobs where run_id = 1")" -ge 3 ]; }
else
  busy() { [ "$(count_state RUNNING)" -ge 1 ] && [ "$(count_state PENDING)" -ge 2 ] &&
           [ "$(history "select count(*) from batch_jobs where run_id = 1")" -ge 3 ]; }
fi
wait_for 90 busy || { echo "FAIL: never saw batch jobs running and waiting, all recorded"; queue; tail "$work/err1"; exit 1; }
held=
if [ "$scenario" != pilot ]; then
  # The kill must not land while the master submits a job: such a job is
  # voided and still ends COMPLETED, which the count of one completed job
  # per task below would not tell apart (batch_submit_hole_test.sh tests
  # that case). So the master is stopped (SIGSTOP)
  # first and killed only once nothing it started still runs, no submission
  # ended unread and every job Slurm knows of is in its history; else it
  # goes on for a moment and the test tries again. Jobs keep running and
  # ending meanwhile: the restart takes their results.
  children() {  # children STATE-PATTERN: the master's children in those states
    ps -o stat=,comm= --ppid "$pid" 2>/dev/null | awk -v s="$1" '$1 ~ s { print $2 }'
  }
  # Every batch job of this test Slurm knows, ended ones too (as squeue
  # names them: JOB or ARRAY_ELEMENT).
  known_jobs() {
    scontrol show job -o 2>/dev/null | grep -E "JobName=gsrt-$host-" |
      sed -nE 's/^JobId=([0-9]+) (ArrayJobId=([0-9]+) ArrayTaskId=([0-9]+))?.*/\1 \3 \4/p' |
      awk '{ print ($2 == "" ? $1 : $2 "_" $3) }'
  }
  unrecorded() {
    local ids; ids=$(history "select batch_id from batch_jobs where run_id = 1")
    known_jobs | grep -vxF -f <(printf '%s\n' $ids) || true
  }
  quiet() {
    kill -STOP "$pid"
    local deadline=$((SECONDS + 3))
    while [ -n "$(children '^[^Z]')" ] && ((SECONDS < deadline)); do sleep 0.05; done
    if [ -z "$(children '^[^Z]')" ] && ! children '^Z' | grep -qE '^(sbatch|qsub)$' &&
       [ -z "$(unrecorded)" ]; then
      # job-lost cancels a waiting element once the master is gone: hold
      # them, so that one still waits then.
      held=$(queue | awk '$2 == "PENDING" { print $1 }')
      for j in $held; do scontrol hold "$j" 2>/dev/null || true; done
      [ "$scenario" != job-lost ] || [ "$(count_state PENDING)" -ge 1 ] && return 0
      release_held
    fi
    kill -CONT "$pid"
    sleep 0.3
    return 1
  }
  release_held() {
    for j in $held; do scontrol release "$j" 2>/dev/null || true; done
    held=
  }
  wait_for 60 quiet || { echo "FAIL: the master never stood still with every queued job recorded"; queue; exit 1; }
fi
before=$(queue)
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
pid=
echo "killed the master with these batch jobs in the queue:"; echo "$before"
[ "$(history "select status from runs where id = 1")" = running ] ||
  { echo "FAIL: the killed run does not look unfinished"; exit 1; }

lost=
if [ "$scenario" = job-lost ]; then
  lost=$(queue | awk '$2 == "PENDING" { print $1; exit }')
  [ -n "$lost" ] || { echo "FAIL: no waiting element left to cancel"; exit 1; }
  scancel "$lost"
  echo "cancelled waiting element $lost while no master runs"
fi
[ "$scenario" = pilot ] || release_held
old_pilots=$(history "select batch_id from batch_jobs where run_id = 1 and signature = ''")

# --- Run 2, same directory: takes the jobs over. ---
start_master 2
timeout 120 tail --pid="$pid" -f /dev/null || { echo "FAIL: the resumed run did not finish"; tail -20 "$work/err2"; exit 1; }
status=0
wait "$pid" || status=$?
pid=
[ "$status" = 0 ] || { echo "FAIL: the resumed run exited $status"; tail -20 "$work/err2"; exit 1; }
diff -r --exclude=.gsrt "$work/parallel" "$work/sequential" > /dev/null ||
  { echo "FAIL: files differ from the sequential run"; tail -20 "$work/err2"; exit 1; }
grep -q "report matches" "$work/out2" || { echo "FAIL: scratch says"; cat "$work/out2"; exit 1; }
left=$(queue)
[ -z "$left" ] || { echo "FAIL: batch jobs left in the queue: $left"; exit 1; }

if [ "$scenario" = pilot ]; then
  [ -n "$old_pilots" ] || { echo "FAIL: the killed run recorded no pilots"; exit 1; }
  back=$(grep -c "of an interrupted master came back" "$work/err2" || true)
  adopted=$(history "select count(*) from batch_jobs where run_id = 2 and adopted = 1 and batch_id like '%/job-%'")
  starts=$(grep -c " run " "$work/worker-starts" || true)
  echo "tasks: $tasks, worker starts over both runs: $starts, pilots back: $back, jobs taken over: $adopted"
  [ "$back" -ge 1 ] || { echo "FAIL: no pilot of the killed run came back"; tail -20 "$work/err2"; exit 1; }
  [ "$adopted" -ge 1 ] || { echo "FAIL: the history records no job taken over from a pilot"; tail -20 "$work/err2"; exit 1; }
  # The pilot that waited in the queue was taken over, not replaced.
  kept=$(grep -c "of an interrupted master is still queued: taken over" "$work/err2" || true)
  new_pilots=$(history "select count(*) from batch_jobs where run_id = 2 and signature = '' and adopted = 0")
  echo "pilots queued when the master restarted, taken over: $kept; pilots the restarted master submitted: $new_pilots"
  [ "$kept" -ge 1 ] || { echo "FAIL: the waiting pilot was not taken over"; tail -20 "$work/err2"; exit 1; }
  [ "$new_pilots" = 0 ] || { echo "FAIL: the restarted master submitted $new_pilots pilot(s) of its own"; tail -20 "$work/err2"; exit 1; }
  if [ "$starts" != "$tasks" ]; then
    echo "FAIL: $starts worker starts for $tasks tasks:"; cat "$work/worker-starts"
    history "select run_id, batch_id, task_id, adopted from batch_jobs order by run_id, job_id"
    tail -20 "$work/err2"
    exit 1
  fi
  echo "OK: $back pilot(s) of the killed run came back and handed over $adopted job(s), $kept queued one(s) taken over, none submitted; $starts worker starts for $tasks tasks"
  exit 0
fi

# Every batch job of both runs as Slurm remembers it (MinJobAge keeps
# finished jobs for 5 minutes): one completed job per task means that no
# task ran twice and none was lost.
jobs=$(scontrol show job -o 2>/dev/null | grep -E "JobName=gsrt-$host-" || true)
completed=$(grep -c "JobState=COMPLETED" <<< "$jobs" || true)
adopted=$(history "select count(*) from batch_jobs where run_id = 2 and adopted = 1")
taken=$(grep -o "[0-9]* batch jobs of the interrupted run taken over" "$work/err2" | cut -d' ' -f1 || true)
echo "tasks: $tasks, batch jobs completed over both runs: $completed, taken over: $adopted"
[ "$adopted" -ge 1 ] || { echo "FAIL: the history records no job taken over"; tail "$work/err2"; exit 1; }
[ "${taken:-0}" = "$adopted" ] || { echo "FAIL: the summary says ${taken:-no} jobs taken over, the history $adopted"; exit 1; }
if [ "$completed" != "$tasks" ]; then
  echo "FAIL: $completed completed batch jobs for $tasks tasks:"
  grep -o "JobId=[^ ]* .*JobState=[A-Z]*" <<< "$jobs" | sed 's/ .*JobState=/ /' | head -40
  echo "the history's batch jobs (run, batch id, task, adopted, signature):"
  history "select run_id, batch_id, task_id, adopted, signature from batch_jobs order by run_id, job_id"
  echo "journal (run, task, signature, reused_from):"
  history "select run_id, task_id, signature, json_extract(outputs, '\$.reused_from') from task_journal order by run_id, task_id"
  tail -20 "$work/err2"
  exit 1
fi
if [ "$scenario" = job-lost ]; then
  grep -q "left the queue without an exit record; running its job again" "$work/err2" ||
    { echo "FAIL: the cancelled element was not run again"; tail "$work/err2"; exit 1; }
  echo "OK: killed master's jobs taken over ($adopted), the one the queue lost ($lost) run again; $completed batch jobs for $tasks tasks"
else
  echo "OK: killed master's jobs taken over ($adopted); $completed batch jobs for $tasks tasks"
fi
