#!/usr/bin/env bash
# The submission hole of job mode: the master is SIGKILLed after the queue
# accepted a batch job but before `sbatch` printed its id, so the id is
# nowhere in the history. Started again, the master finds the element it
# recorded as being submitted (adapters/batch/node/batch_claim.h) and the task
# runs exactly once:
#   batch_submit_hole_test.sh SRC TESTBED_DIR SCENARIO SCRATCH SCRATCH_SEQ
# SCENARIO:
#   void   the accepted job is held in the queue (submitted with --hold) until
#          the restarted master has voided its element and run the task as a
#          new job; released then, it exits without running anything.
#   claim  the accepted job runs to its end while no master runs; the
#          restarted master finds its claim and takes its result over.
# An `sbatch` shim in front of the real one submits, then blocks before
# printing the id of the second real submission: the kill lands there.
set -euo pipefail
src=$1 testbed=$2 scenario=$3 scratch=$4 sequential=$5
source "$src/tests/lib/host_jobs.sh"
work=$(mktemp -d)
pid=
host="t-hole-$scenario-$$"
cleanup() {
  [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null || true
  [ -s "$work/shim/pid" ] && kill -KILL "$(cat "$work/shim/pid")" 2>/dev/null || true
  [ -n "${SLURM_CONF:-}" ] && cancel_host_jobs "$host"
  rm -rf "$work"
}
trap cleanup EXIT
bash "$src/tests/testbed/slurm.sh" start "$testbed" > /dev/null
source "$testbed/slurm.env"
case $scenario in void|claim) ;; *) echo "unknown scenario $scenario"; exit 2 ;; esac

mkdir "$work/shim"
real_sbatch=$(command -v sbatch)
cat > "$work/shim/sbatch" <<SHIM
#!/bin/sh
# gsrt's sbatch, except that the second real submission (not a --test-only
# check) is accepted by Slurm and then blocks before printing its id.
state="$work/shim"
case " \$* " in *" --test-only "*) exec "$real_sbatch" "\$@" ;; esac
n=\$((\$(cat "\$state/count" 2>/dev/null || echo 0) + 1))
echo \$n > "\$state/count"
[ "\$n" = 2 ] || exec "$real_sbatch" "\$@"
extra=
[ "$scenario" = void ] && extra=--hold
out=\$("$real_sbatch" \$extra "\$@") || exit \$?
echo \$\$ > "\$state/pid"
printf '%s\n' "\${out%%;*}" > "\$state/accepted.tmp"
mv "\$state/accepted.tmp" "\$state/accepted"
i=0
while [ \$i -lt 1200 ]; do sleep 0.1; i=\$((i + 1)); done  # the test kills it
printf '%s\n' "\$out"
SHIM
chmod +x "$work/shim/sbatch"

write_batch_config "$work/gsrt.yaml" "$host" slurm job
steps=6 samples=300000
tasks=$((3 * steps))
mkdir "$work/parallel" "$work/sequential"
(cd "$work/sequential" && "$sequential" $steps $samples) > /dev/null
db="$work/parallel/.gsrt/history.db"
history() { sqlite3 "$db" "$1" 2>/dev/null || echo 0; }
queue() { squeue -h -r -o '%i %T %j' 2>/dev/null | awk -v h="$host" 'index($3, "gsrt-" h "-") == 1 { print $1, $2 }'; }

# --- Run 1, through the shim, SIGKILLed inside the second submission. ---
(cd "$work/parallel" && PATH="$work/shim:$PATH" GSRT_CONFIG="$work/gsrt.yaml" exec "$scratch" $steps $samples) \
  > "$work/out1" 2> "$work/err1" &
pid=$!
accepted() { [ -s "$work/shim/accepted" ]; }
wait_for 90 accepted || { echo "FAIL: the master never made a second submission"; tail "$work/err1"; exit 1; }
blocked=$(cat "$work/shim/accepted")
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
pid=
kill -KILL "$(cat "$work/shim/pid")" 2>/dev/null || true
echo "killed the master while sbatch had queued job $blocked but not printed its id"
submitting=$(history "select count(*) from batch_jobs where run_id = 1 and batch_id like 'submitting:%'")
[ "$submitting" -ge 1 ] || { echo "FAIL: nothing recorded as being submitted"; exit 1; }
! history "select batch_id from batch_jobs" | grep -q "^${blocked}" ||
  { echo "FAIL: the id $blocked reached the history: the kill did not land in the hole"; exit 1; }

if [ "$scenario" = claim ]; then
  # It starts (claiming its element), runs and ends with no master.
  gone() { ! queue | grep -q "^${blocked}[_ ]"; }
  pid=$$  # wait_for needs a live pid: this shell's
  wait_for 90 gone || { echo "FAIL: job $blocked never ended"; queue; exit 1; }
  pid=
fi

# --- Run 2, same directory, the real sbatch. ---
(cd "$work/parallel" && GSRT_CONFIG="$work/gsrt.yaml" exec "$scratch" $steps $samples) \
  > "$work/out2" 2> "$work/err2" &
pid=$!
if [ "$scenario" = void ]; then
  voided() { grep -q "has not started: voided" "$work/err2"; }
  wait_for 90 voided || { echo "FAIL: the restarted master did not void the element"; tail "$work/err2"; exit 1; }
  scontrol release "$blocked"
  echo "released job $blocked after its element was voided"
fi
timeout 120 tail --pid="$pid" -f /dev/null || { echo "FAIL: the resumed run did not finish"; tail -20 "$work/err2"; exit 1; }
status=0
wait "$pid" || status=$?
pid=
[ "$status" = 0 ] || { echo "FAIL: the resumed run exited $status"; tail -20 "$work/err2"; exit 1; }
diff -r --exclude=.gsrt "$work/parallel" "$work/sequential" > /dev/null ||
  { echo "FAIL: files differ from the sequential run"; tail -20 "$work/err2"; exit 1; }
grep -q "report matches" "$work/out2" || { echo "FAIL: scratch says"; cat "$work/out2"; exit 1; }
# The released job ends by itself, quickly (bounded).
empty() { [ -z "$(queue)" ]; }
pid=$$
wait_for 60 empty || { echo "FAIL: batch jobs left in the queue: $(queue)"; exit 1; }
pid=

# Every batch job of both runs as Slurm remembers it: one completed job
# that ran each task, plus the voided ones, which ran nothing.
jobs=$(scontrol show job -o 2>/dev/null | grep -E "JobName=gsrt-$host-" || true)
completed=$(grep -c "JobState=COMPLETED" <<< "$jobs" || true)
voided=$({ grep -rl "was voided by the master started again" "$work/parallel/.gsrt" 2>/dev/null || true; } | wc -l)
echo "tasks: $tasks, completed batch jobs: $completed, of them voided: $voided"
if [ "$scenario" = void ]; then
  [ "$voided" -ge 1 ] || { echo "FAIL: no element of job $blocked says it was voided"; exit 1; }
else
  [ "$voided" = 0 ] || { echo "FAIL: $voided elements voided though job $blocked ran"; exit 1; }
  grep -q "it runs as batch job ${blocked}" "$work/err2" ||
    { echo "FAIL: the restarted master did not find job $blocked by its claim"; tail "$work/err2"; exit 1; }
fi
[ "$((completed - voided))" = "$tasks" ] ||
  { echo "FAIL: $((completed - voided)) batch jobs ran a task, for $tasks tasks"; grep -o "JobId=[^ ]* .*JobState=[A-Z]*" <<< "$jobs" | sed 's/ .*JobState=/ /'; exit 1; }
echo "OK: job $blocked, queued but never recorded, $([ "$scenario" = void ] && echo voided and its task run once as a new job || echo taken over by its claim); $((completed - voided)) batch jobs ran $tasks tasks"
