#!/usr/bin/env bash
# Pilots on several nodes (issue 30), on the many-node Slurm bed
# (tests/testbed/slurm_nodes.sh, NODES_DIR, 3 nodes of 2 CPUs):
#   nodes_pilot_test.sh SRC SCRATCH NODES_DIR MODE
# A slurm host in pilot mode with three 2-CPU pilots; the master listens on
# the nodes' network (`listen`: the bed's gateway address), as it must on
# a cluster whose nodes are other machines.
#   spread     the pilots ran on at least two different nodes (squeue's
#              node list while the run goes on) and the run's files equal
#              the sequential build's.
#   node-lost  the node of one running pilot is killed mid-run: the pilot
#              is lost, the run ends with the sequential build's files.
#              The bed is started again for the tests after it.
set -euo pipefail
source "$(dirname "$0")/lib/nodes_bed.sh"
src=$1 scratch=$2 nodes_dir=$3 mode=$4
work=$(mktemp -d)
pid=
cleanup() {
  [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null || true
  scancel --quiet --partition=debug 2>/dev/null || true
  if [ "$mode" = node-lost ]; then
    nodes_bed_restart
  fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; tail -20 "$work/err" 2>/dev/null || true; exit 1; }

nodes_bed_up
host="nodes-$$"
printf 'runtime:\n  progress: always\nhosts:\n  - name: %s\n    adapter: slurm\n    mode: pilot\n    pilots: 3\n    cpus_per_task: 2\n    shared_fs: true\n    listen: "%s"\n    workdir: %s/cluster\n' \
  "$host" "$GSRT_SLURM_NODES_GATEWAY" "$work" > "$work/gsrt.yaml"
mkdir "$work/run" "$work/seq"
args=(30 400000)
(cd "$work/seq" && "$scratch-sequential" "${args[@]}") > /dev/null
(cd "$work/run" && GSRT_CONFIG="$work/gsrt.yaml" timeout 300 "$scratch" "${args[@]}") \
  > "$work/out" 2> "$work/err" &
pid=$!
# The nodes the host's pilots run on, while they run.
deadline=$((SECONDS + 120))
nodes=
until [ "$(grep -o '^gsrt: [0-9]* done' "$work/err" | tail -n 1 | tr -dc 0-9)" -ge 10 ] 2>/dev/null; do
  kill -0 "$pid" 2>/dev/null || fail "the run ended before 10 tasks were seen done"
  ((SECONDS < deadline)) || fail "10 tasks were not done in time"
  sleep 0.1
done
# The bed is this test's alone (RESOURCE_LOCK): its running jobs are the
# pilots.
nodes=$(squeue -h -t running -o '%N' | sort -u)
if [ "$mode" = spread ]; then
  [ "$(echo "$nodes" | grep -c .)" -ge 2 ] || fail "the pilots all ran on one node: $nodes"
else
  victim=$(echo "$nodes" | head -n 1)
  [ -n "$victim" ] || fail "no pilot was running"
  nodes_bed_kill "$victim"
fi
timeout 300 tail --pid="$pid" -f /dev/null || fail "the run did not finish"
status=0
wait "$pid" || status=$?
pid=
[ "$status" = 0 ] || fail "master exited $status"
grep -q "report matches the sequential" "$work/out" || fail "scratch says: $(cat "$work/out")"
diff -r --exclude=.gsrt "$work/run" "$work/seq" > "$work/diff" ||
  fail "files differ from the sequential build's: $(head -5 "$work/diff")"
if [ "$mode" = node-lost ]; then
  grep -qiE "pilot.*(lost|gone)|lost.*pilot" "$work/err" ||
    fail "the killed node's pilot was not reported: $(grep -i pilot "$work/err" | head -5)"
fi
echo "OK: nodes pilots $mode (on $(echo $nodes))"
