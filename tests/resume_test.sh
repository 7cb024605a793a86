#!/usr/bin/env bash
# Resume after a master crash: matmul is SIGKILLed once the history's task
# journal holds some finished tasks, then started again with the same
# program and arguments in the same directory. The second run must reuse
# what the first one journaled (the summary says how many), end with the
# sequential run's files byte for byte, and the history must show that no
# task signature completed twice across the two runs.
#   resume_test.sh SOURCE_DIR MATMUL MATMUL_SEQUENTIAL local
#   resume_test.sh SOURCE_DIR MATMUL MATMUL_SEQUENTIAL ssh PORT
# `ssh` runs on the master's cores plus three real sshd hosts (started
# here), `local` on the master alone.
set -euo pipefail
src=$1 master=$2 sequential=$3 mode=$4 port=${5:-}
work=$(mktemp -d)
stop() {
  [ -n "${pid:-}" ] && kill -KILL "$pid" 2>/dev/null || true
  if [ "$mode" = ssh ]; then
    GSRT_SSHD_PORT=$port bash "$src/tests/testbed/sshd.sh" stop "$work/sshd" >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap stop EXIT
n=5 bs=96
if [ "$mode" = ssh ]; then
  GSRT_SSHD_PORT=$port bash "$src/tests/testbed/sshd.sh" start 3 "$work/sshd" >/dev/null
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
journaled() { sqlite3 "$db" "select count(*) from task_journal" 2>/dev/null || echo 0; }

cd "$work/parallel"
"$master" $n $bs > "$work/out1" 2> "$work/err1" &
pid=$!
# Wait (bounded) until the journal holds a quarter of the 201 tasks.
want=50
for _ in $(seq 1 1200); do
  [ "$(journaled)" -ge $want ] && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.05
done
kill -KILL "$pid" 2>/dev/null || { echo "FAIL: the first run ended before it was killed"; tail "$work/err1"; exit 1; }
wait "$pid" 2>/dev/null || true
pid=
first=$(journaled)
[ "$first" -ge $want ] || { echo "FAIL: only $first tasks journaled before the kill"; tail "$work/err1"; exit 1; }
[ "$first" -lt 201 ] || { echo "FAIL: the whole run was journaled before the kill"; exit 1; }
[ "$(sqlite3 "$db" "select status from runs where id = 1")" = running ] ||
  { echo "FAIL: the killed run does not look unfinished"; exit 1; }
echo "killed the master with $first of 201 tasks journaled"

"$master" $n $bs > "$work/out2" 2> "$work/err2" ||
  { echo "FAIL: the resumed run exited $?"; tail -20 "$work/err2"; exit 1; }
cd "$work"
diff -r --exclude=.gsrt "$work/parallel" "$work/sequential" > /dev/null ||
  { echo "FAIL: files differ from the sequential run"; exit 1; }
grep -q "matches the sequential" "$work/out2" || { echo "FAIL: matmul says"; cat "$work/out2"; exit 1; }
reused=$(sed -n 's/^gsrt: *\([0-9]*\) tasks reused from the interrupted run$/\1/p' "$work/err2")
[ -n "$reused" ] || { echo "FAIL: the summary does not say what was reused"; tail "$work/err2"; exit 1; }
# Every task the first run journaled is reused, none runs again.
[ "$reused" -eq "$first" ] || { echo "FAIL: $reused tasks reused, $first were journaled"; tail "$work/err2"; exit 1; }
twice=$(sqlite3 "$db" "select count(*) from (select signature from task_journal
  where json_extract(outputs, '$.reused_from') is null group by signature having count(*) > 1)")
[ "$twice" = 0 ] || { echo "FAIL: $twice task signatures completed in both runs"; exit 1; }
# And the jobs agree: no successful job in the second run for a task whose
# signature the first run journaled.
rerun=$(sqlite3 "$db" "select count(*) from jobs j join task_journal t
  on t.run_id = j.run_id and t.task_id = j.task_id
  where j.run_id = 2 and j.outcome = 'ok'
  and t.signature in (select signature from task_journal where run_id = 1)")
[ "$rerun" = 0 ] || { echo "FAIL: $rerun journaled tasks ran again"; exit 1; }
[ "$(sqlite3 "$db" "select count(*) from task_journal where run_id = 2")" = 201 ] ||
  { echo "FAIL: the second run did not journal every task"; exit 1; }
[ ! -e "$work/parallel/.gsrt/data" ] || { echo "FAIL: .gsrt/data left behind"; exit 1; }
grep "tasks in\|reused\|jobs on\|resuming" "$work/err2"
echo "OK: resumed after SIGKILL ($mode): $reused tasks reused, none ran twice, files identical"
