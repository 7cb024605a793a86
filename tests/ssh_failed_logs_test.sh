#!/usr/bin/env bash
# The logs of a task that failed on an ssh host come back to the master
# (issue 36): step (1, 0) writes ~70 KiB to stderr on node1 (a real sshd
# on loopback) and throws. The summary names the host and where the logs
# were there and are now; the master's .gsrt/failed/node1/... holds the
# last 64 KiB of what the step wrote, and the message says it was cut.
#   ssh_failed_logs_test.sh SOURCE_DIR FAULTS_MASTER
set -euo pipefail
src=$1 master=$2
testbed="$src/tests/testbed/sshd.sh"
work=$(mktemp -d)
stop() {
  bash "$testbed" stop "$work/sshd" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap stop EXIT
fail() { echo "FAIL: $*"; tail -30 "$work/err" 2>/dev/null || true; exit 1; }
GSRT_SSHD_PORT=auto bash "$testbed" start 1 "$work/sshd" >/dev/null
{
  echo "runtime:"
  echo "  retries: {app: 0}"
  cat "$work/sshd/gsrt.yaml"
} > "$work/gsrt.yaml"
mkdir "$work/run" "$work/switches"
touch "$work/switches/throw-1-0"
first="first line $RANDOM$RANDOM, cut away"
last="last line $RANDOM$RANDOM, kept"
{
  echo "$first"
  for i in $(seq 1 1100); do printf 'filler %04d %s\n' "$i" "$(printf '%0.s=' $(seq 1 50))"; done
  echo "$last"
} > "$work/switches/shout-1-0"
cd "$work/run"
status=0
GSRT_CONFIG="$work/gsrt.yaml" timeout 120 "$master" 2 2 0 "$work/switches" > "$work/out" 2> "$work/err" || status=$?
[ "$status" != 124 ] || fail "the master did not finish in 120 s"
[ "$status" != 0 ] || fail "a run with a failed task exited 0"
line=$(grep '^gsrt: task [0-9]* (step) failed after 1 attempt: ' "$work/err") ||
  fail "no summary line for the failed step"
echo "$line"
remote="$work/sshd/host1/work/failed"
local_dir="$work/run/.gsrt/failed/node1"
grep -qF "; logs in $local_dir/" <<< "$line" ||
  fail "the logs are not named on the master under .gsrt/failed/node1/"
grep -qF "(fetched from host 'node1': $remote/" <<< "$line" ||
  fail "the message does not name the host and the path there"
grep -qF "stderr cut to its last 64 KiB" <<< "$line" ||
  fail "the message does not say the log was cut"
dir=$(sed -n 's/.*; logs in \([^ ]*\) (fetched.*/\1/p' <<< "$line")
[ -d "$dir" ] || fail "$dir is not a directory"
grep -qxF "$last" "$dir/stderr" || fail "$dir/stderr lacks the step's last line"
! grep -qF "$first" "$dir/stderr" || fail "$dir/stderr holds more than its end"
size=$(stat -c %s "$dir/stderr")
[ "$size" = 65536 ] || fail "$dir/stderr has $size bytes, not its last 64 KiB"
[ "$(stat -c %a "$work/run/.gsrt/failed")" = 700 ] || fail ".gsrt/failed is not the owner's only"
# The host keeps its own copy, whole.
grep -qF "$first" "$remote"/*/task-*-step-job-*/stderr ||
  fail "the host's evidence lost its stderr"
echo "OK: failed logs fetched from node1 to $dir"
