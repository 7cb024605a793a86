#!/usr/bin/env bash
# Job numbers never collide across runs in one work dir (issue 12 point 9):
# two runs, then a run killed with SIGKILL and its resume. Every step of
# the fault-test pipeline writes a line naming its run to stderr, so each
# job leaves logs/job-<n>.stderr in the host's work dir (the master's .gsrt
# for the local host); a later run that reused a number would overwrite an
# earlier run's log.
#   job_numbers_test.sh FAULTS_MASTER
set -euo pipefail
master=$1
work=$(mktemp -d)
pid=""
cleanup() {
  [ -z "$pid" ] || kill -KILL "$pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work"
printf 'hosts:\n  - name: local\n    adapter: local\n    slots: 2\n' > gsrt.yaml
export GSRT_CONFIG="$work/gsrt.yaml"
mkdir switches
fail() { echo "FAIL: $*"; exit 1; }

# The job numbers of the logs whose text names run $1.
numbers_of() {
  { find .gsrt -path '*/logs/job-*.stderr' -exec grep -l "^$1 step" {} + ||
    true; } | sed 's/.*job-\([0-9]*\)\.stderr/\1/' | sort -n
}
# Checks that run $1 left exactly $2 logs, each still naming it.
check_logs() {
  local n
  n=$(numbers_of "$1" | wc -l)
  [ "$n" = "$2" ] || fail "$n logs of $1, expected $2 (overwritten?)"
}

# --- two runs; the first has a failed attempt, whose evidence must last ---
echo run1 > switches/speak
touch switches/crash-1-0
"$master" 2 3 0 "$work/switches" > out.1 2> err.1 || { cat err.1; fail "run1"; }
check_logs run1 6
evidence=$(find .gsrt -type d -path '*/failed/*' -name 'task-*-job-*')
[ "$(echo "$evidence" | grep -c .)" = 1 ] || fail "run1 left no single evidence dir: $evidence"
echo run2 > switches/speak
"$master" 2 3 0 "$work/switches" > out.2 2> err.2 || { cat err.2; fail "run2"; }
check_logs run1 6
check_logs run2 6
[ -d "$evidence" ] || fail "run1's evidence $evidence is gone"
max1=$(numbers_of run1 | tail -1)
min2=$(numbers_of run2 | sed -n 1p)
[ "$min2" -gt "$max1" ] || fail "run2 numbered from $min2, run1 went to $max1"
echo "run2 numbered its jobs after run1's ($max1 < $min2); run1's logs and evidence stay"

# --- a master killed with SIGKILL, then resumed ---
# Killed once its journal (committed every second) holds a finished step
# of its own, so that the next run resumes it.
echo run3 > switches/speak
"$master" 2 4 300 "$work/switches" > out.3 2> err.3 & pid=$!
journaled() {
  sqlite3 .gsrt/history.db "select count(*) from task_journal where run_id = 3
    and operation = 'step'" 2>/dev/null || echo 0
}
for _ in $(seq 1 600); do
  [ "$(journaled)" -gt 0 ] && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.05
done
[ "$(journaled)" -gt 0 ] || { cat err.3; fail "run3 journaled no step before the kill"; }
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
pid=""
left3=$(numbers_of run3 | wc -l)
# Sandboxes of jobs that were running when the master died.
max_sandbox=$(find .gsrt -type d -regex '.*/jobs/[0-9]+' -printf '%f\n' |
  sort -n | tail -1)
max3=$(numbers_of run3 | tail -1)
[ -z "$max_sandbox" ] || [ "$max_sandbox" -le "$max3" ] || max3=$max_sandbox
echo run4 > switches/speak
"$master" 2 4 0 "$work/switches" > out.4 2> err.4 || { cat err.4; fail "run4"; }
grep -q "reused" err.4 || { cat err.4; fail "run4 did not resume run3"; }
check_logs run1 6
check_logs run2 6
check_logs run3 "$left3"
min4=$(numbers_of run4 | sed -n 1p)
[ -n "$min4" ] || fail "run4 ran no job"
[ "$min4" -gt "$max3" ] || fail "run4 numbered from $min4, the killed run reached $max3"
echo "OK: job numbers never collide across runs (killed run up to $max3, resumed from $min4)"
