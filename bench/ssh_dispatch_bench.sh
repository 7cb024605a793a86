#!/usr/bin/env bash
# No-op tasks on one ssh host (a real sshd on 127.0.0.2, started here on a
# port free at run time) through gsrt's agent, against, in the same run:
#   (a) one `ssh host worker ...` per task with the system ssh client, two
#       at a time (the host's slots), on a sample of tasks;
#   (b) the same tasks through the local adapter, in the same worker mode.
# Both worker modes (runtime.workers) are measured, rounds alternating, best
# of ROUNDS kept; with persistent workers also the ssh host with `prefetch:
# 0` (each job sent only when a slot is free), with `prefetch_window: 0`
# (a fixed depth of `slots`; by default short jobs deepen it, docs/
# configuration.md) and with `prefetch: 8`. Goals: at least 50 x (a);
# with persistent workers at least 0.9 x (b).
#
#   bench/ssh_dispatch_bench.sh BUILD_DIR [TASKS (default 2000)] [SSH_SAMPLE (default 40)] [ROUNDS (default 2)]
#
# GSRT_BENCH_WORKERS=persistent measures persistent workers only (for task
# counts at which one process per job takes minutes); SSH_SAMPLE 0 skips (a).
# GSRT_BENCH_PORT fixes the port (default: one free now).
set -euo pipefail
build=$(cd "$1" && pwd)
tasks=${2:-2000}
sample=${3:-40}
rounds=${4:-2}
src=$(cd "$(dirname "$0")/.." && pwd)
bench=$build/bench/local_dispatch_bench
work=$(mktemp -d)
stop() { bash "$src/tests/testbed/sshd.sh" stop "$work/sshd" >/dev/null 2>&1 || true; rm -rf "$work"; }
trap stop EXIT
GSRT_SSHD_PORT=${GSRT_BENCH_PORT:-auto} bash "$src/tests/testbed/sshd.sh" start 1 "$work/sshd" >/dev/null
port=$(sed -n 's/^GSRT_SSHD_PORT=//p' "$work/sshd/hosts.env")
for mode in process persistent; do
  { printf 'runtime:\n  workers: %s\n' "$mode"; cat "$work/sshd/gsrt.yaml"; } > "$work/ssh-$mode.yaml"
  printf 'runtime:\n  workers: %s\nhosts:\n  - name: local\n    adapter: local\n    slots: 2\n' "$mode" > "$work/local-$mode.yaml"
done
# The same ssh host without prefetch (jobs sent only to free slots) and with
# a deeper one, to show what prefetch gives.
for depth in 0 8; do
  sed "s/^\(    slots: .*\)\$/\1\n    prefetch: $depth/" "$work/ssh-persistent.yaml" > "$work/ssh-persistent-p$depth.yaml"
done
# And without prefetch_window (the depth stays at prefetch, the host's
# slots, however short the jobs): what the window gives.
sed "s/^\(    slots: .*\)\$/\1\n    prefetch_window: 0/" "$work/ssh-persistent.yaml" > "$work/ssh-persistent-w0.yaml"
# Each run prints "N jobs/s; the tasks alone M jobs/s (GS_On A ms, GS_Off B
# ms)": N from GS_On to GS_Off (connecting the host and shutting it down
# included), M the tasks alone (first call to the end of GS_Barrier).
# run() answers "N M A B".
rates_of() { sed -n 's/^round 1: \([0-9]*\) jobs\/s; the tasks alone \([0-9]*\) jobs\/s (GS_On \([0-9]*\) ms, GS_Off \([0-9]*\) ms).*/\1 \2 \3 \4/p'; }
run() { (cd "$work" && GSRT_CONFIG="$work/$1.yaml" "$bench" "$tasks" 1 2>/dev/null | rates_of); }
max() { awk -v a="$1" -v b="$2" 'BEGIN { print (a > b ? a : b) }'; }

echo "ssh_dispatch_bench: $tasks no-op tasks, 2 slots, best of $rounds rounds; ssh-per-task sample of $sample; load: $(cut -d' ' -f1-3 /proc/loadavg)"
# Installs the agent and the worker on the host once, so that no round
# pays for it (a host is installed once, not per run).
(cd "$work" && GSRT_CONFIG="$work/ssh-persistent.yaml" "$bench" 10 1 >/dev/null 2>&1)
sides="ssh-persistent local-persistent ssh-persistent-w0 ssh-persistent-p0 ssh-persistent-p8"
[[ ${GSRT_BENCH_WORKERS:-} == persistent ]] || sides="$sides ssh-process local-process"
declare -A best best_alone
for side in ssh-persistent local-persistent ssh-persistent-w0 ssh-persistent-p0 ssh-persistent-p8 ssh-process local-process; do
  best[$side]=0; best_alone[$side]=0
done
for ((r = 1; r <= rounds; r++)); do
  line="  round $r (whole run / tasks alone jobs/s, GS_On + GS_Off ms):"
  for side in $sides; do
    read -r rate alone on off < <(run "$side")
    best[$side]=$(max "${best[$side]}" "$rate")
    best_alone[$side]=$(max "${best_alone[$side]}" "$alone")
    line="$line $side $rate/$alone ($on+$off)"
  done
  echo "$line"
done

per=0
if ((sample > 0)); then
  # (a): the worker gsrt installed on the host, started by ssh per task.
  worker="$work/sshd/host1/work/bin/local_dispatch_bench-worker"
  [ -x "$worker" ] || { echo "no installed worker at $worker"; exit 1; }
  ssh_cmd=(ssh -i "$work/sshd/id_ed25519" -o UserKnownHostsFile="$work/sshd/known_hosts"
           -o BatchMode=yes -o StrictHostKeyChecking=yes -p "$port" "$(id -un)@127.0.0.2")
  start=$(date +%s.%N)
  seq 1 "$sample" | xargs -P 2 -I{} "${ssh_cmd[@]}" "$worker" run noop "$work/sshd/host1/r{}" {}
  end=$(date +%s.%N)
  per=$(awk -v n="$sample" -v s="$start" -v e="$end" 'BEGIN { print n / (e - s) }')
fi
awk -v per="$per" -v ssh="${best[ssh-process]}" -v loc="${best[local-process]}" \
    -v pssh="${best[ssh-persistent]}" -v ploc="${best[local-persistent]}" \
    -v p0="${best[ssh-persistent-p0]}" -v apssh="${best_alone[ssh-persistent]}" \
    -v aploc="${best_alone[local-persistent]}" -v ap0="${best_alone[ssh-persistent-p0]}" \
    -v p8="${best[ssh-persistent-p8]}" -v ap8="${best_alone[ssh-persistent-p8]}" \
    -v w0="${best[ssh-persistent-w0]}" -v aw0="${best_alone[ssh-persistent-w0]}" 'BEGIN {
  if (per > 0) printf "  (a) ssh per task:                  %8.1f jobs/s\n", per
  if (loc > 0) {
    printf "  process workers:    gsrt over ssh  %8.1f jobs/s, local %8.1f -> ssh/local = %.2f", ssh, loc, ssh / loc
    if (per > 0) printf "; ssh/ssh-per-task = %.1f (goal >= 50)", ssh / per
    printf "\n"
  }
  printf "  persistent workers: gsrt over ssh  %8.1f jobs/s, local %8.1f -> ssh/local = %.2f (goal >= 0.9)", pssh, ploc, pssh / ploc
  if (per > 0) printf "; ssh/ssh-per-task = %.1f", pssh / per
  printf "\n"
  printf "  persistent workers, prefetch_window 0 (depth = slots):  gsrt over ssh  %8.1f jobs/s -> ssh/local = %.2f\n", w0, w0 / ploc
  printf "  persistent workers, prefetch 0:  gsrt over ssh  %8.1f jobs/s -> ssh/local = %.2f\n", p0, p0 / ploc
  printf "  persistent workers, prefetch 8:  gsrt over ssh  %8.1f jobs/s -> ssh/local = %.2f\n", p8, p8 / ploc
  printf "  tasks alone (without GS_On/GS_Off), persistent: ssh %.1f, local %.1f jobs/s -> ssh/local = %.2f; prefetch_window 0: ssh %.1f -> %.2f; prefetch 0: ssh %.1f -> %.2f; prefetch 8: ssh %.1f -> %.2f\n", apssh, aploc, apssh / aploc, aw0, aw0 / aploc, ap0, ap0 / aploc, ap8, ap8 / aploc
}'
echo "  load after: $(cut -d' ' -f1-3 /proc/loadavg)"
