#!/usr/bin/env bash
# Pilots that follow the work (issue 16, point 6) on the local Slurm testbed
# (tests/testbed/slurm.sh, started here if it is not running):
#   autoscale_pilot_test.sh SRC TESTBED_DIR BURST BURST_SEQ
# A pilot host with pilots: 1, max_pilots: 2, pilot_linger: 2 (1-CPU
# pilots on the 2-CPU node) gets a burst of 1-second tasks. From squeue,
# sampled by this script: a second pilot is submitted while the burst's
# tasks wait, never more than two; after the burst, with the master still
# running (it waits in its own code for a file this script creates), the
# idle pilot leaves the queue and the floor's stays. The files match the
# sequential run and nothing of the run is left in the queue.
set -euo pipefail
src=$1 testbed=$2 burst=$3 sequential=$4
source "$src/tests/lib/host_jobs.sh"
work=$(mktemp -d)
pid= sampler=
host="t-autoscale-$$"
cleanup() {
  [ -n "$sampler" ] && kill "$sampler" 2>/dev/null || true
  [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null || true
  cancel_host_jobs "pilot-$host"
  rm -rf "$work"
}
trap cleanup EXIT
bash "$src/tests/testbed/slurm.sh" start "$testbed" > /dev/null
source "$testbed/slurm.env"

cat > "$work/gsrt.yaml" <<YAML
runtime:
  heartbeat: 1
hosts:
  - name: $host
    adapter: slurm
    mode: pilot
    pilots: 1
    max_pilots: 2
    pilot_linger: 2
    shared_fs: true
YAML
# This run's pilots still queued or running (a cancelled one may linger a
# moment as COMPLETING: it has left).
pilots() {
  squeue -h -t PENDING,RUNNING,CONFIGURING,SUSPENDED -o '%j' 2>/dev/null |
    grep -c "^gsrt-pilot-$host-" || true
}
fail() { echo "FAIL: $*"; tail -20 "$work/err" 2>/dev/null; exit 1; }

tasks=12 work_ms=1000
mkdir "$work/parallel" "$work/sequential"
touch "$work/sequential.release"
(cd "$work/sequential" && "$sequential" "$tasks" "$work_ms" "$work/sequential.release") > /dev/null
(cd "$work/parallel" &&
  exec env GSRT_CONFIG="$work/gsrt.yaml" "$burst" "$tasks" "$work_ms" "$work/release") \
  > "$work/out" 2> "$work/err" &
pid=$!
start=$SECONDS
# The queue over time: "SECONDS_SINCE_START PILOTS BURST_DONE RELEASED"
# (released: the master was let go to GS_Off, which cancels the pilots).
(while kill -0 "$pid" 2>/dev/null; do
   done_yet=0; grep -q "burst done" "$work/out" 2>/dev/null && done_yet=1
   released=0; [ -e "$work/release" ] && released=1
   echo "$((SECONDS - start)) $(pilots) $done_yet $released"
   sleep 0.1
 done) > "$work/samples" &
sampler=$!

two() { [ "$(pilots)" -ge 2 ]; }
wait_for 60 two || fail "no second pilot was submitted"
grep -q "burst done" "$work/out" && fail "the second pilot came only after the burst"
echo "a second pilot was submitted after $((SECONDS - start)) s, while tasks waited"

burst_done() { grep -q "burst done" "$work/out"; }
wait_for 90 burst_done || fail "the burst did not finish"
one() { [ "$(pilots)" -le 1 ]; }
wait_for 30 one || fail "the idle pilot did not leave the queue: $(pilots) pilots"
kill -0 "$pid" 2>/dev/null || fail "the master ended before the pilot left"
left_after=$((SECONDS - start))
[ "$(pilots)" = 1 ] || fail "the floor's pilot left too"
grep -q "released" "$work/err" || fail "no pilot was released"

touch "$work/release"
status=0
timeout 120 tail --pid="$pid" -f /dev/null || fail "the run did not finish"
wait "$pid" || status=$?
pid=
kill "$sampler" 2>/dev/null || true; wait "$sampler" 2>/dev/null || true; sampler=
[ "$status" = 0 ] || fail "master exited $status"
diff -r --exclude=.gsrt "$work/parallel" "$work/sequential" > /dev/null ||
  fail "files differ from the sequential run"
ok=$(sqlite3 "$work/parallel/.gsrt/history.db" \
  "select count(*) from jobs where host = '$host' and outcome = 'ok'")
[ "$ok" = "$tasks" ] || fail "$ok of $tasks jobs ran well on $host"

# Counts over time, from the samples: never above max_pilots; two while the
# burst ran; back to one (never zero) after the first pilot served and
# before the master was let go.
max=$(awk '{ if ($2 > m) m = $2 } END { print m + 0 }' "$work/samples")
[ "$max" -le 2 ] || fail "$max pilots at once (max_pilots is 2)"
during=$(awk '$3 == 0 && $2 == 2' "$work/samples" | wc -l)
[ "$during" -ge 1 ] || fail "no sample saw two pilots during the burst"
dropped=$(awk '$4 == 0 && seen && $2 == 0 { n++ } $2 >= 1 { seen = 1 } END { print n + 0 }' "$work/samples")
[ "$dropped" = 0 ] || fail "the host had no pilot in $dropped samples after the first"
empty() { [ "$(pilots)" = 0 ]; }
deadline=$((SECONDS + 10))
until empty; do ((SECONDS < deadline)) || fail "pilots left in the queue"; sleep 0.1; done
echo "OK: pilots followed the work: 2 during the burst of $tasks tasks, 1 again after $left_after s while the master waited; files match the sequential run"
