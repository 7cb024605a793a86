#!/usr/bin/env bash
# No-op tasks on the local Slurm testbed (tests/testbed/slurm.sh, started
# here if not running; one node, 2 CPUs), measured in the same run:
#   gsrt pilot mode: one pilot job runs gsrt-agent, every task streams
#       through it (GS_On to GS_Off, the pilot's queue wait included);
#   baseline: one `sbatch --wrap` per task running the same worker, two
#       CPUs, until the queue has drained;
#   for information: gsrt job mode (tasks as job arrays, exit records).
# Goal: pilot mode at least 20 x the baseline.
#
#   bench/slurm_dispatch_bench.sh BUILD_DIR [TASKS (default 500)] [TESTBED_DIR]
set -euo pipefail
build=$(cd "$1" && pwd)
tasks=${2:-500}
src=$(cd "$(dirname "$0")/.." && pwd)
testbed=${3:-$build/slurm-testbed}
bench=$build/bench/local_dispatch_bench
worker=$bench-worker
[ -x "$bench" ] || { echo "build the local_dispatch_bench target first (GSRT_BUILD_BENCH=ON)"; exit 1; }
work=$(mktemp -d)
trap 'scancel --quiet --name=gsrt-bench-baseline 2>/dev/null || true; rm -rf "$work"' EXIT
bash "$src/tests/testbed/slurm.sh" start "$testbed" > /dev/null
source "$testbed/slurm.env"
rate_of() { sed -n 's/.*gsrt \([0-9.]*\) jobs\/s.*/\1/p'; }
config() {  # config MODE SLOTS
  cat > "$work/$1.yaml" <<YAML
hosts:
  - name: bench-$1
    adapter: slurm
    mode: $1
    slots: $2
    shared_fs: true
YAML
}
config pilot 2
config job 64
echo "slurm_dispatch_bench: $tasks no-op tasks on a one-node Slurm ($(nproc) CPUs)"
pilot=$(GSRT_CONFIG="$work/pilot.yaml" "$bench" "$tasks" 1 2>/dev/null | rate_of)
job=$(GSRT_CONFIG="$work/job.yaml" "$bench" "$tasks" 1 2>/dev/null | rate_of)

# Baseline: one sbatch per task (the same worker and arguments).
mkdir -p "$work/baseline"
start=$(date +%s.%N)
for i in $(seq 1 "$tasks"); do
  sbatch --quiet --job-name=gsrt-bench-baseline --output=/dev/null \
    --chdir="$work/baseline" --wrap="exec $worker run noop r$i $i"
done
while [ -n "$(squeue -h --name=gsrt-bench-baseline -o %i)" ]; do sleep 0.05; done
end=$(date +%s.%N)
done_count=$(ls "$work/baseline" | wc -l)
[ "$done_count" = "$tasks" ] || echo "warning: only $done_count of $tasks baseline jobs left a result"
awk -v n="$tasks" -v s="$start" -v e="$end" -v pilot="$pilot" -v job="$job" 'BEGIN {
  base = n / (e - s)
  printf "  gsrt pilot mode (1 pilot):   %8.1f tasks/s\n", pilot
  printf "  gsrt job mode (job arrays):  %8.1f tasks/s\n", job
  printf "  baseline, sbatch per task:   %8.1f tasks/s\n", base
  printf "  pilot / sbatch-per-task = %.1f (goal >= 20); job arrays / sbatch-per-task = %.1f\n", pilot / base, job / base
}'
