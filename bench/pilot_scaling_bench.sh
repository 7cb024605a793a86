#!/usr/bin/env bash
# A burst of short tasks on a pilot host of the local Slurm testbed
# (tests/testbed/slurm.sh, started here if not running; one node, 2 CPUs),
# measured in the same run:
#   baseline: one pilot, fixed (`pilots: 1`);
#   gsrt: pilots that follow the work (`pilots: 1`, `max_pilots: 2`,
#       `pilot_linger: 2`; docs/slurm.md, "Pilots that follow the work").
# Prints each run's time (GS_On to the burst's end, queue waits included)
# and the ratio.
#
#   bench/pilot_scaling_bench.sh BUILD_DIR [TASKS (default 12)] [MS (default 1000)] [TESTBED_DIR]
set -euo pipefail
build=$(cd "$1" && pwd)
tasks=${2:-12} ms=${3:-1000}
src=$(cd "$(dirname "$0")/.." && pwd)
testbed=${4:-$build/slurm-testbed}
burst=$build/tests/burst
[ -x "$burst" ] || { echo "build the burst target first"; exit 1; }
work=$(mktemp -d)
trap 'scancel --quiet --name=gsrt-pilot-bench-fixed,gsrt-pilot-bench-scaling 2>/dev/null || true; rm -rf "$work"' EXIT
bash "$src/tests/testbed/slurm.sh" start "$testbed" > /dev/null
source "$testbed/slurm.env"
run() {  # run NAME EXTRA_YAML: prints the burst's seconds
  mkdir -p "$work/$1"
  cat > "$work/$1/gsrt.yaml" <<YAML
hosts:
  - name: bench-$1
    adapter: slurm
    mode: pilot
    pilots: 1
$2
    shared_fs: true
YAML
  touch "$work/$1/release"  # the burst program does not wait at its end
  (cd "$work/$1" && GSRT_CONFIG="$work/$1/gsrt.yaml" "$burst" "$tasks" "$ms" "$work/$1/release" \
     > out 2> err) || { echo "burst failed:"; tail "$work/$1/err"; exit 1; }
  grep -o "$tasks tasks in [0-9.]* s" "$work/$1/err" | awk '{ print $4 }'
}
fixed=$(run fixed "")
scaling=$(run scaling "    max_pilots: 2
    pilot_linger: 2")
echo "$tasks tasks of $ms ms: one fixed pilot $fixed s, pilots that follow the work $scaling s" \
  "(ratio $(awk -v a="$scaling" -v b="$fixed" 'BEGIN { printf "%.2f", a / b }'))"
