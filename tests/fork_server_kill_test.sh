#!/usr/bin/env bash
# runtime.workers: fork, a fork server killed while its job runs: the job
# fails as an application failure, is run again within its budget
# (retries.app) by a fresh fork server, and the run completes with the
# files of the sequential computation.
#   fork_server_kill_test.sh SCRATCH_MASTER SCRATCH_SEQUENTIAL
set -euo pipefail
master=$1 sequential=$2
worker="$master-worker"
work=$(mktemp -d)
source "$(dirname "$0")/lib/own_workers.sh"
cleanup() { kill_own_workers "$worker" "$work"; rm -rf "$work"; }
trap cleanup EXIT
mkdir "$work/parallel" "$work/sequential"
cd "$work/parallel"
printf 'runtime:\n  workers: fork\n  retries: {app: 2}\n' > gsrt.yaml
args=(4 2000000)
"$master" "${args[@]}" > "$work/parallel.out" 2> "$work/parallel.err" &
pid=$!
# Wait (bounded) for a job running in a process forked by a fork server:
# a worker whose parent is not the master. It is stopped (SIGSTOP) before
# its server is killed, so that it cannot end first and let the kill miss.
server=
for _ in $(seq 1 400); do
  for p in $(own_workers "$worker" "$work"); do
    parent=$(awk '{print $4}' "/proc/$p/stat" 2>/dev/null || true)
    if [ -n "$parent" ] && [ "$parent" != "$pid" ] && [ "$parent" != 1 ]; then
      kill -STOP "$p" 2>/dev/null || continue
      # Still the server's child, not ended (a zombie) nor reaped?
      [ "$(awk '{print $3 $4}' "/proc/$p/stat" 2>/dev/null)" != "Z$parent" ] &&
        [ "$(awk '{print $4}' "/proc/$p/stat" 2>/dev/null)" = "$parent" ] || continue
      server=$parent
      break 2
    fi
  done
  sleep 0.05
done
[ -n "$server" ] || { echo "FAIL: no job ran in a forked process"; cat "$work/parallel.err"; exit 1; }
grep -q -- "fork-server" "/proc/$server/cmdline" ||
  { echo "FAIL: the job's parent $server is not a fork server"; exit 1; }
kill -KILL "$server"
status=0
timeout 120 tail --pid="$pid" -f /dev/null || { echo "FAIL: the run did not finish"; exit 1; }
wait "$pid" || status=$?
[ "$status" = 0 ] || { echo "FAIL: master exited $status"; cat "$work/parallel.err"; exit 1; }
(cd "$work/sequential" && "$sequential" "${args[@]}") > "$work/sequential.out" 2>&1 ||
  { echo "FAIL: $sequential failed"; cat "$work/sequential.out"; exit 1; }
diff -r --exclude=.gsrt --exclude=gsrt.yaml "$work/parallel" "$work/sequential" ||
  { echo "FAIL: files differ from the sequential run"; exit 1; }
# The killed job left its evidence (the first attempt failed).
find "$work/parallel/.gsrt" -path '*/failed/*' -name 'task-*' | grep -q . ||
  { echo "FAIL: no failed attempt kept: the kill missed its job"; exit 1; }
echo "OK: a killed fork server's job ran again and the run completed"
