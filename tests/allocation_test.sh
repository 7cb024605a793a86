#!/usr/bin/env bash
# Inside an allocation (`mode: allocation`, issue 30), on the many-node
# Slurm bed (tests/testbed/slurm_nodes.sh, NODES_DIR, 3 nodes):
#   allocation_test.sh SRC SCRATCH NODES_DIR MODE [BUILD_DIR]
# SCRATCH is examples/scratch (SCRATCH-sequential beside it). The master
# runs as `salloc -N 3 -c 2 SCRATCH ...` with one host `mode: allocation`:
#   plain      jobs ran on all three nodes (one agent each, started by
#              srun), gsrt submitted nothing (an `sbatch` and a `qsub`
#              first on PATH would have left a mark), the files equal the
#              sequential build's, and no step or job is left afterwards.
#   node-lost  node n2 is killed (every process in its namespace) once 20
#              tasks are done: its host is lost like any other, the run
#              ends with the sequential build's files. The bed is started
#              again for the tests after it.
#   outside    the same program started outside an allocation stops at
#              GS_On saying to start it inside one.
#   gpus       SCRATCH is tests/gpus here: under `salloc -N 2 --gres=gpu:2`
#              (each bed node has two stand-in GPUs) each node's agent finds
#              the two its srun step holds (--detect-gpus); 2-GPU jobs get
#              both, 1-GPU jobs one, CPU jobs none, on both nodes, and no
#              gsrt.yaml names a GPU.
#   outoftree  gsrt installed from BUILD_DIR into a prefix, the ledger
#              application (tests/outoftree/ledger) built outside the tree
#              against it and run under `salloc -N 3`: its files and output
#              equal its sequential build's, jobs ran on several nodes, and
#              nothing was submitted.
set -euo pipefail
source "$(dirname "$0")/lib/nodes_bed.sh"
src=$1 scratch=$2 nodes_dir=$3 mode=$4 build=${5:-}
work=$(mktemp -d)
pid=
cleanup() {
  [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null || true
  if [ "$mode" = node-lost ]; then
    nodes_bed_restart
  fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; tail -20 "$work/err" 2>/dev/null || true; exit 1; }

nodes_bed_up
salloc=$(command -v salloc)
# Submissions would leave a mark.
mkdir "$work/shim"
for tool in sbatch qsub; do
  printf '#!/bin/sh\ntouch %s/submitted-%s\nexit 1\n' "$work" "$tool" > "$work/shim/$tool"
  chmod +x "$work/shim/$tool"
done
printf 'runtime:\n  progress: always\nhosts:\n  - name: alloc\n    adapter: slurm\n    mode: allocation\n    shared_fs: true\n' \
  > "$work/gsrt.yaml"
mkdir "$work/run" "$work/seq"
args=(30 20000)
# Long enough tasks that the node dies in the middle of the run.
[ "$mode" = node-lost ] && args=(30 400000)
[ "$mode" = gpus ] || (cd "$work/seq" && "$scratch-sequential" "${args[@]}") > /dev/null

if [ "$mode" = outside ]; then
  status=0
  (cd "$work/run" && env -u SLURM_JOB_ID -u SLURM_JOB_NODELIST GSRT_CONFIG="$work/gsrt.yaml" \
    timeout 60 "$scratch" "${args[@]}") > "$work/out" 2> "$work/err" || status=$?
  [ "$status" != 0 ] || fail "the program ran outside an allocation"
  grep -q "SLURM_JOB_ID or SLURM_JOB_NODELIST is not set: start the program inside one" "$work/err" ||
    fail "the message does not say what to do: $(cat "$work/err")"
  echo "OK: allocation outside"
  exit 0
fi

if [ "$mode" = gpus ]; then
  (cd "$work/run" && env -u CUDA_VISIBLE_DEVICES -u GSRT_GPUS PATH="$work/shim:$PATH" \
    GSRT_CONFIG="$work/gsrt.yaml" timeout 300 "$salloc" -N 2 -c 2 --gres=gpu:2 \
    "$scratch" 12 300) > "$work/out" 2> "$work/err" || fail "salloc + master exited $?"
  ls "$work"/submitted-* > /dev/null 2>&1 && fail "gsrt submitted a batch job inside the allocation"
  n=0
  for log in "$work"/run/log*.txt; do
    read -r kind index _ _ cuda gsrt _ < "$log"
    case $kind in
      pair) [ "$cuda" = 0,1 ] || fail "pair $index saw devices '$cuda'" ;;
      one) [[ $cuda =~ ^[01]$ ]] || fail "one $index saw devices '$cuda'" ;;
      cpu) [ "$cuda" = - ] || fail "cpu $index saw devices '$cuda'" ;;
    esac
    [ "$gsrt" = "$cuda" ] || fail "$kind $index: GSRT_GPUS '$gsrt' is not CUDA_VISIBLE_DEVICES '$cuda'"
    n=$((n + 1))
  done
  [ "$n" = 12 ] || fail "$n of 12 tasks wrote their log"
  for node in n1 n2; do
    grep -qE "^gsrt: +[0-9]+ jobs on alloc-$node\$" "$work/err" ||
      fail "no job ran on $node: $(grep 'jobs on' "$work/err")"
  done
  echo "OK: allocation gpus"
  exit 0
fi

if [ "$mode" = outoftree ]; then
  cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
  cmake -S "$src/tests/outoftree/ledger" -B "$work/ledger" -G Ninja \
    -DCMAKE_PREFIX_PATH="$work/prefix" > "$work/configure.log" ||
    { cat "$work/configure.log"; fail "configure the ledger"; }
  cmake --build "$work/ledger" > "$work/build.log" || { cat "$work/build.log"; fail "build the ledger"; }
  rm -rf "$work/run" "$work/seq"
  mkdir "$work/run" "$work/seq"
  (cd "$work/seq" && "$work/ledger/ledger-sequential") > "$work/seq.out" 2>&1
  (cd "$work/run" && PATH="$work/shim:$PATH" GSRT_CONFIG="$work/gsrt.yaml" \
    timeout 300 "$salloc" -N 3 -c 2 "$work/ledger/ledger") > "$work/out" 2> "$work/err" ||
    fail "the ledger under salloc exited $?"
  diff -r --exclude=.gsrt "$work/run" "$work/seq" > "$work/diff" ||
    fail "files differ from the sequential build's: $(head -5 "$work/diff")"
  diff "$work/out" "$work/seq.out" > /dev/null || fail "output differs from the sequential build's"
  ls "$work"/submitted-* > /dev/null 2>&1 && fail "gsrt submitted a batch job inside the allocation"
  used=$(grep -cE "^gsrt: +[0-9]+ jobs on alloc-n[123]\$" "$work/err" || true)
  [ "$used" -ge 2 ] || fail "jobs ran on $used node(s): $(grep 'jobs on' "$work/err")"
  echo "OK: allocation outoftree (jobs on $used nodes)"
  exit 0
fi

(cd "$work/run" && PATH="$work/shim:$PATH" GSRT_CONFIG="$work/gsrt.yaml" \
  timeout 300 "$salloc" -N 3 -c 2 "$scratch" "${args[@]}") > "$work/out" 2> "$work/err" &
pid=$!
if [ "$mode" = node-lost ]; then
  deadline=$((SECONDS + 120))
  until [ "$(grep -o '^gsrt: [0-9]* done' "$work/err" | tail -n 1 | tr -dc 0-9)" -ge 20 ] 2>/dev/null; do
    kill -0 "$pid" 2>/dev/null || fail "the run ended before the node could be killed"
    ((SECONDS < deadline)) || fail "20 tasks were not done in time"
    sleep 0.1
  done
  nodes_bed_kill n2
fi
timeout 300 tail --pid="$pid" -f /dev/null || fail "the run did not finish"
status=0
wait "$pid" || status=$?
pid=
[ "$status" = 0 ] || fail "salloc + master exited $status"
grep -q "report matches the sequential" "$work/out" || fail "scratch says: $(cat "$work/out")"
diff -r --exclude=.gsrt "$work/run" "$work/seq" > "$work/diff" ||
  fail "files differ from the sequential build's: $(head -5 "$work/diff")"
ls "$work"/submitted-* > /dev/null 2>&1 && fail "gsrt submitted a batch job inside the allocation"
if [ "$mode" = plain ]; then
  for node in n1 n2 n3; do
    grep -qE "^gsrt: +[0-9]+ jobs on alloc-$node\$" "$work/err" ||
      fail "no job ran on $node: $(grep 'jobs on' "$work/err")"
  done
else
  grep -qE "host alloc-n2 was lost|alloc-n2.*(lost|down)" "$work/err" ||
    fail "the killed node's host was not reported lost: $(grep -i 'lost\|down' "$work/err" | head -5)"
fi
# The allocation and its steps are gone.
deadline=$((SECONDS + 30))
while [ -n "$(squeue -h -o %i 2>/dev/null)" ]; do
  ((SECONDS < deadline)) || fail "jobs left in the queue: $(squeue)"
  sleep 0.2
done
echo "OK: allocation $mode"
