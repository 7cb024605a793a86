#!/usr/bin/env bash
# No-op tasks on one ssh host (a real sshd on 127.0.0.2, started here)
# through gsrt's agent, against, in the same run:
#   (a) one `ssh host worker ...` per task with the system ssh client, two
#       at a time (the host's slots), on a sample of tasks;
#   (b) the same tasks through the local adapter.
# Goal: at least 50 x (a) and at least 0.5 x (b).
#
#   bench/ssh_dispatch_bench.sh BUILD_DIR [TASKS (default 2000)] [SSH_SAMPLE (default 40)]
set -euo pipefail
build=$(cd "$1" && pwd)
tasks=${2:-2000}
sample=${3:-40}
src=$(cd "$(dirname "$0")/.." && pwd)
bench=$build/bench/local_dispatch_bench
port=${GSRT_BENCH_PORT:-2394}
work=$(mktemp -d)
stop() { GSRT_SSHD_PORT=$port bash "$src/tests/testbed/sshd.sh" stop "$work/sshd" >/dev/null 2>&1 || true; rm -rf "$work"; }
trap stop EXIT
GSRT_SSHD_PORT=$port bash "$src/tests/testbed/sshd.sh" start 1 "$work/sshd" >/dev/null
cp "$work/sshd/gsrt.yaml" "$work/gsrt.yaml"
rate_of() { sed -n 's/.*gsrt \([0-9]*\) jobs\/s.*/\1/p'; }

echo "ssh_dispatch_bench: $tasks no-op tasks, 2 slots; ssh-per-task sample of $sample"
ssh_rate=$(cd "$work" && GSRT_CONFIG="$work/gsrt.yaml" "$bench" "$tasks" 1 2>/dev/null | rate_of)
local_rate=$(cd "$work" && "$bench" "$tasks" 1 2>/dev/null | rate_of)

# (a): the worker gsrt installed on the host, started by ssh per task.
worker="$work/sshd/host1/work/bin/local_dispatch_bench-worker"
[ -x "$worker" ] || { echo "no installed worker at $worker"; exit 1; }
ssh_cmd=(ssh -i "$work/sshd/id_ed25519" -o UserKnownHostsFile="$work/sshd/known_hosts"
         -o BatchMode=yes -o StrictHostKeyChecking=yes -p "$port" "$(id -un)@127.0.0.2")
start=$(date +%s.%N)
seq 1 "$sample" | xargs -P 2 -I{} "${ssh_cmd[@]}" "$worker" run noop "$work/sshd/host1/r{}" {}
end=$(date +%s.%N)
awk -v n="$sample" -v s="$start" -v e="$end" -v ssh="$ssh_rate" -v loc="$local_rate" 'BEGIN {
  per = n / (e - s)
  printf "  gsrt over ssh (agent):      %8.1f jobs/s\n", ssh
  printf "  (a) ssh per task:           %8.1f jobs/s  -> gsrt/ssh-per-task = %.1f (goal >= 50)\n", per, ssh / per
  printf "  (b) gsrt local adapter:     %8.1f jobs/s  -> gsrt-ssh/local = %.2f (goal >= 0.5)\n", loc, ssh / loc
}'
