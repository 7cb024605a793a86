#!/usr/bin/env bash
# Resume after a master crash: matmul is SIGKILLed once the history's task
# journal holds some finished tasks, started again with the same program
# and arguments in the same directory and SIGKILLed again once it has run
# more, then started a third time. The last run must reuse every task the
# interrupted runs journaled (the summary says how many), end with the
# sequential run's files byte for byte, and the history must show that no
# task signature completed twice across the three runs.
#   resume_test.sh SOURCE_DIR MATMUL MATMUL_SEQUENTIAL local
#   resume_test.sh SOURCE_DIR MATMUL MATMUL_SEQUENTIAL ssh
# `ssh` runs on the master's cores plus three real sshd hosts (started
# here), `local` on the master alone.
set -euo pipefail
src=$1 master=$2 sequential=$3 mode=$4
work=$(mktemp -d)
stop() {
  [ -n "${pid:-}" ] && kill -KILL "$pid" 2>/dev/null || true
  if [ "$mode" = ssh ]; then
    bash "$src/tests/testbed/sshd.sh" stop "$work/sshd" >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap stop EXIT
n=5 bs=96
if [ "$mode" = ssh ]; then
  GSRT_SSHD_PORT=auto bash "$src/tests/testbed/sshd.sh" start 3 "$work/sshd" >/dev/null
  {
    echo "hosts:"
    echo "  - name: master"
    echo "    adapter: local"
    echo "    slots: 1"
    grep -v '^#' "$work/sshd/gsrt.yaml" | grep -v '^hosts:'
  } > "$work/gsrt.yaml"
else
  printf 'hosts:\n  - name: master\n    adapter: local\n    slots: 2\n' > "$work/gsrt.yaml"
fi
export GSRT_CONFIG="$work/gsrt.yaml"
mkdir "$work/parallel" "$work/sequential"
(cd "$work/sequential" && "$sequential" $n $bs) > /dev/null
db="$work/parallel/.gsrt/history.db"

# Starts run $1 in the background and SIGKILLs it once the SQL count $2
# reaches $3 (bounded wait); fails if the run ended first.
run_and_kill() {
  local run=$1 sql=$2 want=$3 got=0
  (cd "$work/parallel" && exec "$master" $n $bs) > "$work/out$run" 2> "$work/err$run" &
  pid=$!
  for _ in $(seq 1 1200); do
    got=$(sqlite3 "$db" "$sql" 2>/dev/null || echo 0)
    [ "${got:-0}" -ge "$want" ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  kill -KILL "$pid" 2>/dev/null || { echo "FAIL: run $run ended before it was killed"; tail "$work/err$run"; exit 1; }
  wait "$pid" 2>/dev/null || true
  pid=
  [ "$(sqlite3 "$db" "select status from runs where id = $run")" = running ] ||
    { echo "FAIL: killed run $run does not look unfinished"; exit 1; }
}
ran_in() { sqlite3 "$db" "select count(*) from task_journal where run_id = $1 and json_extract(outputs, '$.reused_from') is null"; }

# Run 1: killed once a quarter of the 201 tasks are journaled.
run_and_kill 1 "select count(*) from task_journal" 50
first=$(ran_in 1)
[ "$first" -ge 50 ] && [ "$first" -lt 201 ] || { echo "FAIL: $first tasks journaled by run 1"; exit 1; }
echo "run 1 killed with $first of 201 tasks journaled"
# Run 2 resumes it and is killed too, once it has run 30 tasks of its own.
run_and_kill 2 "select count(*) from task_journal where run_id = 2 and json_extract(outputs, '$.reused_from') is null" 30
grep -q "^gsrt: resuming: $first finished tasks" "$work/err2" ||
  { echo "FAIL: run 2 did not resume run 1's $first tasks"; tail "$work/err2"; exit 1; }
echo "run 2 killed with $(ran_in 2) more tasks journaled"
done_before=$(sqlite3 "$db" "select count(distinct signature) from task_journal")

# Run 3 resumes both and finishes.
(cd "$work/parallel" && "$master" $n $bs) > "$work/out3" 2> "$work/err3" ||
  { echo "FAIL: the resumed run exited $?"; tail -20 "$work/err3"; exit 1; }
diff -r --exclude=.gsrt "$work/parallel" "$work/sequential" > /dev/null ||
  { echo "FAIL: files differ from the sequential run"; exit 1; }
grep -q "matches the sequential" "$work/out3" || { echo "FAIL: matmul says"; cat "$work/out3"; exit 1; }
reused=$(sed -n 's/^gsrt: *\([0-9]*\) tasks reused from the interrupted run$/\1/p' "$work/err3")
[ -n "$reused" ] || { echo "FAIL: the summary does not say what was reused"; tail "$work/err3"; exit 1; }
# Every task the interrupted runs journaled is reused, none runs again.
[ "$reused" -eq "$done_before" ] ||
  { echo "FAIL: $reused tasks reused, $done_before were journaled"; tail "$work/err3"; exit 1; }
twice=$(sqlite3 "$db" "select count(*) from (select signature from task_journal
  where json_extract(outputs, '$.reused_from') is null group by signature having count(*) > 1)")
[ "$twice" = 0 ] || { echo "FAIL: $twice task signatures completed in two runs"; exit 1; }
# The jobs agree: no successful job in a later run for a task whose
# signature an earlier run journaled.
rerun=$(sqlite3 "$db" "select count(*) from jobs j join task_journal t
  on t.run_id = j.run_id and t.task_id = j.task_id
  where j.outcome = 'ok' and exists (select 1 from task_journal e
    where e.signature = t.signature and e.run_id < j.run_id)")
[ "$rerun" = 0 ] || { echo "FAIL: $rerun journaled tasks ran again"; exit 1; }
[ "$(sqlite3 "$db" "select count(*) from task_journal where run_id = 3")" = 201 ] ||
  { echo "FAIL: run 3 did not journal every task"; exit 1; }
[ "$(sqlite3 "$db" "select status from runs where id = 3")" = ok ] || { echo "FAIL: run 3 not ok"; exit 1; }
[ ! -e "$work/parallel/.gsrt/data" ] || { echo "FAIL: .gsrt/data left behind"; exit 1; }
grep "tasks in\|reused\|jobs on\|resuming" "$work/err3"
echo "OK: resumed after SIGKILL twice ($mode): $reused tasks reused, none ran twice, files identical"
