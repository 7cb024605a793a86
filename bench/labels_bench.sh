#!/usr/bin/env bash
# What declaring labels and GPUs on a host costs runs that do not use them
# (issue 29's acceptance: within 5 %): no-op tasks through the local
# adapter with persistent workers (bench/local_dispatch_bench with
# GSRT_CONFIG), on the same 2-slot local host
#   plain     as it is;
#   declared  with `labels: [gpu, bigmem, site-b]` and `gpus: 4`;
#   kept      declared, and the no-op operation kept to the host by a label
#             (runtime.hosts: every host meets it, so it costs nothing);
# rounds alternating so that other load falls on every side alike, best of
# ROUNDS kept. Prints each round and the ratios declared/plain and
# kept/plain (of jobs/s from GS_On to GS_Off).
#
#   bench/labels_bench.sh BUILD_DIR [TASKS (default 3000)] [ROUNDS (default 5)]
set -euo pipefail
build=$(cd "$1" && pwd)
tasks=${2:-3000}
rounds=${3:-5}
bench=$build/bench/local_dispatch_bench
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
host='hosts:\n  - name: local\n    adapter: local\n    slots: 2\n'
printf "runtime:\n  workers: persistent\n$host" > "$work/plain.yaml"
printf "runtime:\n  workers: persistent\n$host    labels: [gpu, bigmem, site-b]\n    gpus: 4\n" > "$work/declared.yaml"
printf "runtime:\n  workers: persistent\n  hosts: {noop: [site-b]}\n$host    labels: [gpu, bigmem, site-b]\n    gpus: 4\n" > "$work/kept.yaml"
rate() { (cd "$work" && GSRT_CONFIG="$work/$1.yaml" "$bench" "$tasks" 1 2>/dev/null |
  sed -n 's/^round 1: \([0-9]*\) jobs\/s.*/\1/p'); }
echo "labels_bench: $tasks no-op tasks, 2 slots, best of $rounds rounds; load: $(cut -d' ' -f1-3 /proc/loadavg)"
declare -A best=([plain]=0 [declared]=0 [kept]=0)
for r in $(seq "$rounds"); do
  line="round $r:"
  for side in plain declared kept; do
    v=$(rate "$side")
    [[ -n $v ]] || { echo "labels_bench: the $side run failed" >&2; exit 1; }
    (( v > best[$side] )) && best[$side]=$v
    line+=" $side $v jobs/s"
  done
  echo "$line"
done
awk -v p="${best[plain]}" -v d="${best[declared]}" -v k="${best[kept]}" 'BEGIN {
  printf "labels_bench: plain %d, declared %d (%.3f of plain), kept %d (%.3f of plain) jobs/s (goal >= 0.95)\n", p, d, d / p, k, k / p }'
