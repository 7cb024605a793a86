#!/usr/bin/env bash
# Tasks holding several cores (issue 15), whole runs of tests/cores:
#   cores_test.sh SRC CORES MODE [TESTBED_DIR]
# MODE:
#   local      a 2-slot local host: never more than 2 cores busy at once,
#              1-core tasks still run two at a time, a 2-core worker gets
#              OMP_NUM_THREADS=2 (and a 1-core one none).
#   refused    a call whose @Constraints fit no host stops the program at
#              the call, naming the operation, its needs and the hosts.
#   ssh        the same as local on one real sshd host (slots: 2) through
#              its agent.
#   slurm-job  a 2-slot Slurm host in job mode: never more than 2 cores
#              busy, and each 2-core job was submitted asking for 2 CPUs
#              (SLURM_CPUS_PER_TASK seen by the worker), a 1-core one for 1.
#   slurm-pilot  a Slurm host in pilot mode without `slots`: two pilots of
#              one CPU each (cpus_per_task: 1) size themselves by their
#              allocations, so never more than 2 cores busy (sized by the
#              node, each would take 2), 1-core tasks still two at a time.
set -euo pipefail
source "$(dirname "$0")/lib/host_jobs.sh"
src=$1 cores=$2 mode=$3 testbed=${4:-}
work=$(mktemp -d)
pid=
cleanup() {
  [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null || true
  case $mode in slurm-*) cancel_host_jobs "$host" ;; esac
  if [ "$mode" = ssh ]; then
    bash "$src/tests/testbed/sshd.sh" stop "$work/sshd" > /dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; tail -20 "$work/err" 2>/dev/null || true; exit 1; }

host="cores-$mode-$$"
case $mode in
  local|refused)
    printf 'hosts:\n  - name: %s\n    adapter: local\n    slots: 2\n' "$host" > "$work/gsrt.yaml" ;;
  ssh)
    GSRT_SSHD_PORT=auto bash "$src/tests/testbed/sshd.sh" start 1 "$work/sshd" > /dev/null
    host=node1
    grep -v '^#' "$work/sshd/gsrt.yaml" > "$work/gsrt.yaml" ;;
  slurm-job)
    bash "$src/tests/testbed/slurm.sh" start "$testbed" > /dev/null
    source "$testbed/slurm.env"
    printf 'hosts:\n  - name: %s\n    adapter: slurm\n    mode: job\n    slots: 2\n    shared_fs: true\n' "$host" > "$work/gsrt.yaml" ;;
  slurm-pilot)
    bash "$src/tests/testbed/slurm.sh" start "$testbed" > /dev/null
    source "$testbed/slurm.env"
    printf 'hosts:\n  - name: %s\n    adapter: slurm\n    mode: pilot\n    pilots: 2\n    cpus_per_task: 1\n    shared_fs: true\n' "$host" > "$work/gsrt.yaml" ;;
  *) fail "unknown mode $mode" ;;
esac
mkdir "$work/run"
cd "$work/run"
tasks=9 work_ms=400
[ "$mode" = slurm-job ] && work_ms=1500  # batch jobs start slower
[ "$mode" = slurm-pilot ] && work_ms=800
args=("$tasks" "$work_ms")
[ "$mode" = refused ] && args=(3 10 huge)
# OMP_NUM_THREADS must come from gsrt, not from the caller's environment.
env -u OMP_NUM_THREADS GSRT_CONFIG="$work/gsrt.yaml" "$cores" "${args[@]}" \
  > "$work/out" 2> "$work/err" &
pid=$!
timeout 300 tail --pid="$pid" -f /dev/null || fail "the run did not finish"
status=0
wait "$pid" || status=$?
pid=

if [ "$mode" = refused ]; then
  [ "$status" != 0 ] || fail "a call no host can run did not stop the program"
  want="operation 'huge' needs 64 cores and 1 GB of memory (its @Constraints in the IDL) but no host has that much: $host has 2 cores"
  grep -qF "$want" "$work/err" || fail "message does not name the operation, its needs and the host: $(cat "$work/err")"
  # No `memory:` in gsrt.yaml: the capacity shown is the machine's MemTotal.
  grep -qE "$host has 2 cores and [0-9.]+ GB of memory" "$work/err" || fail "the local host's memory (MemTotal) is not its capacity: $(cat "$work/err")"
  [ ! -e log0.txt ] || fail "calls after the refused one ran"
  echo "OK: cores refused"
  exit 0
fi

[ "$status" = 0 ] || fail "master exited $status"
cat log*.txt > "$work/lines"
[ "$(wc -l < "$work/lines")" = "$tasks" ] || fail "expected $tasks logs, got $(wc -l < "$work/lines")"
# Cores busy over time: +k at each start, -k at each end (ends first at
# equal times); the most at once, overall and of 1-core tasks.
read -r most most_narrow < <(awk '{
    k = ($1 == "wide") ? 2 : 1
    printf "%s 1 %d %d\n", $3, k, (k == 1)
    printf "%s 0 %d %d\n", $4, -k, -(k == 1)
  }' "$work/lines" | sort -k1,1n -k2,2n |
  awk '{ busy += $3; narrow += $4; if (busy > most) most = busy
         if (narrow > mn) mn = narrow } END { print most, mn }')
[ "$most" -le 2 ] || fail "$most cores busy at once on a 2-slot host"
[ "$most_narrow" -ge 2 ] || fail "1-core tasks never ran two at a time"
if [ "$mode" != slurm-job ]; then
  awk '$1 == "wide" && $5 != "2" { exit 1 }' "$work/lines" || fail "a 2-core worker did not get OMP_NUM_THREADS=2"
  awk '$1 == "narrow" && $5 != "-" { exit 1 }' "$work/lines" || fail "a 1-core worker got OMP_NUM_THREADS"
else
  awk '$1 == "wide" && $6 != "2" { exit 1 }' "$work/lines" || fail "a 2-core job was not submitted with 2 CPUs: $(cat "$work/lines")"
  awk '$1 == "narrow" && $6 != "1" { exit 1 }' "$work/lines" || fail "a 1-core job did not ask for 1 CPU"
fi
echo "OK: cores $mode (at most $most cores busy, $most_narrow 1-core tasks at once)"
