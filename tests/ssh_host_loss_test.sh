#!/usr/bin/env bash
# An ssh host whose sshd (and everything under it: the agent, its workers)
# is SIGKILLed mid-run, while a job runs there: the host is marked lost,
# the versions only it held are recomputed elsewhere, and the run still
# ends with the sequential run's files.
# gsdeploy then reads the distrust the runtime recorded: node2's rose, the
# others' did not. node2 stays down to the end, so GS_Off says what stays
# in its work dir (the killed job's sandbox, the copies the run dropped);
# once node2 is back, the next run in the same directory removes it.
#   ssh_host_loss_test.sh SOURCE_DIR MATMUL MATMUL_SEQUENTIAL GSDEPLOY
set -euo pipefail
src=$1 master=$2 sequential=$3 gsdeploy=$4
testbed="$src/tests/testbed/sshd.sh"
work=$(mktemp -d)
stop() {
  [ -n "${pid:-}" ] && kill -KILL "$pid" 2>/dev/null || true
  bash "$testbed" stop "$work/sshd" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap stop EXIT
GSRT_SSHD_PORT=auto bash "$testbed" start 3 "$work/sshd" >/dev/null
{
  echo "runtime:"
  echo "  heartbeat: 1"
  echo "hosts:"
  echo "  - name: master"
  echo "    adapter: local"
  echo "    slots: 1"
  grep -v '^#' "$work/sshd/gsrt.yaml" | grep -v '^hosts:'
} > "$work/gsrt.yaml"
mkdir "$work/parallel" "$work/sequential"
(cd "$work/sequential" && "$sequential" 5 96) > /dev/null
cd "$work/parallel"
GSRT_CONFIG="$work/gsrt.yaml" "$master" 5 96 > "$work/out" 2> "$work/err" &
pid=$!
# Wait until node2 holds a file in data/ (so it keeps a copy the run will
# drop) and a job in flight, freeze node2 with the job's end unreported
# (its agent is stopped first, with a worker child that it has not
# reaped), then crash it: its sshd listener and every process under it. The master is waiting for that job, so it cannot miss the loss.
# Bounded by the run itself and by 5 minutes (the hosts connect first: a
# few remote commands each).
node2=$work/sshd/host2/work
agent="$node2/bin/gsrt-agent --workdir"
worker="$(basename "$master")-worker"
victims=
for _ in $(seq 1 6000); do
  kill -0 "$pid" 2>/dev/null || break
  # (Not before its agent runs: no freezing in the middle of its setup.)
  pgrep -f -- "$agent" >/dev/null && [ -n "$(ls -A "$node2/data" 2>/dev/null)" ] &&
    victims=$(bash "$testbed" freeze "$work/sshd" 2 "$agent" "$worker") && break
  victims=
  sleep 0.05
done
[ -n "$victims" ] || { echo "FAIL: node2 never ran a job"; cat "$work/err"; exit 1; }
kill -KILL $victims 2>/dev/null || true
echo "killed node2 with a job in flight there: $(echo $victims | wc -w) processes"
status=0
timeout 180 tail --pid="$pid" -f /dev/null || { echo "FAIL: the run did not finish"; tail "$work/err"; exit 1; }
wait "$pid" || status=$?
pid=
[ "$status" = 0 ] || { echo "FAIL: matmul exited $status"; tail -20 "$work/err"; exit 1; }
diff -r --exclude=.gsrt "$work/parallel" "$work/sequential" > /dev/null ||
  { echo "FAIL: files differ from the sequential run"; exit 1; }
grep -q "host node2 was lost" "$work/err" || { echo "FAIL: the loss is not reported"; tail "$work/err"; exit 1; }
failures=$(sqlite3 "$work/parallel/.gsrt/history.db" "select count(*) from host_failures where host = 'node2'")
[ "$failures" -ge 1 ] || { echo "FAIL: no infrastructure failure recorded for node2"; exit 1; }
distrust_of() {
  "$gsdeploy" rank --config "$work/gsrt.yaml" --json 2>/dev/null |
    tr -d ' \n' | grep -o "\"name\":\"$1\"[^}]*" | grep -o '"distrust":[0-9]*' | cut -d: -f2
}
[ "$(distrust_of node2)" -ge 1 ] || { echo "FAIL: gsdeploy shows no distrust for node2"; exit 1; }
[ "$(distrust_of node1)" = 0 ] || { echo "FAIL: node1 was charged"; exit 1; }
echo "gsdeploy distrust: node1 $(distrust_of node1), node2 $(distrust_of node2)"
grep "host node2 was lost\|jobs on\|tasks in" "$work/err"

# What the killed host keeps, and the next run that reaches it.
grep -q "host node2 did not answer again" "$work/err" ||
  { echo "FAIL: GS_Off does not say what stays on node2"; tail "$work/err"; exit 1; }
# (Sandboxes of jobs that ran, or idle ones kept for reuse, named .idle.*.)
sandboxes=$(find "$node2/jobs" -mindepth 1 -maxdepth 1 | wc -l)
copies=$(find "$node2/data" -mindepth 1 -maxdepth 1 | wc -l)
((copies >= 1)) || { echo "FAIL: no copy the run dropped is on node2"; ls -la "$node2/data"; exit 1; }
bash "$testbed" revive "$work/sshd" 2 >/dev/null
GSRT_CONFIG="$work/gsrt.yaml" timeout 300 "$master" 2 32 >/dev/null 2>"$work/err2" ||
  { echo "FAIL: the next run failed"; tail "$work/err2"; exit 1; }
left=$(find "$node2/jobs" "$node2/data" -mindepth 1 -maxdepth 1)
[ -z "$left" ] || { echo "FAIL: left on node2 after the next run: $left"; exit 1; }
echo "the next run removed what node2 kept: $copies entries of data/, $sandboxes of jobs/"
echo "OK: node2 killed mid-run; the run finished with the sequential run's files"
