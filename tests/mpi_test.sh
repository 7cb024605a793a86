#!/usr/bin/env bash
# MPI programs as operations (@MPI, issue 30), whole runs of tests/mpi with
# Debian's Open MPI and a program this script builds with mpicc:
#   mpi_test.sh SRC MPI_APP MODE [NODES_DIR]
# (MPI_APP-sequential, beside MPI_APP, is the sequential build.)
# MODE:
#   local  two 4-rank jobs at once on the local host of 6 slots: together
#          they need more cores than it has, so one waits for the other
#          (never half of each); each rank's part merged by rank 0 equals
#          the sequential build's.
#   nodes  the same, 2 ranks on each of 2 nodes, on the many-node Slurm bed
#          (NODES_DIR; tests/testbed/slurm_nodes.sh): a slurm host in job
#          mode submits each as one batch job of --nodes=2; the ranks ran
#          on two nodes; 8 cores asked of 6.
#   nodes-srun the same with runner="srun": the ranks are a step of the
#          batch job (srun --ntasks=4 --ntasks-per-node=2), through Slurm's
#          PMIx plugin (SLURM_MPI_TYPE=pmix, as a site's MpiDefault).
#   node-lost  one 4-rank job over 2 nodes of the bed that takes 10 s: once
#          it runs, one of its nodes is killed (its slurmd and every
#          process in it); the job runs again on the nodes left and the
#          run ends with the sequential build's file. The bed is started
#          again after.
#   allocation  the master inside `salloc -N 3 -c 2` with a host in
#          `mode: allocation`: one node per host, and gsrt places each job
#          on a gang of two of them (one by mpirun, one by srun): the two
#          need 8 cores of 6, so one waits for the other, whole; the
#          ranks ran on two nodes, nothing was submitted.
#   allocation-node-lost  inside `salloc -N 3 -c 2`, one 4-rank job over a
#          gang of 2 nodes that takes 10 s: once its ranks run, the
#          gang's other node (where Open MPI's daemon step runs) is
#          killed; the job runs again on a gang of the nodes left and the
#          run ends with the sequential build's file. The bed is started
#          again after.
#   crash  rank 1 aborts: the run fails naming the operation, the MPI job
#          and Open MPI's report of the rank that failed.
set -euo pipefail
source "$(dirname "$0")/lib/nodes_bed.sh"
src=$1 app=$2 mode=$3 nodes_dir=${4:-}
work=$(mktemp -d)
pid=
cleanup() {
  [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null || true
  case $mode in
    nodes*|node-lost|allocation*) scancel --quiet --partition=debug 2>/dev/null || true ;;
  esac
  if [ "${mode#allocation-}" = node-lost ]; then
    nodes_bed_restart
  fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; tail -20 "$work/err" 2>/dev/null || true; exit 1; }

command -v mpicc > /dev/null ||
  fail "mpicc is not installed (Debian: libopenmpi-dev openmpi-bin; scripts/install-deps.sh installs them)"
mkdir "$work/bin" "$work/run" "$work/seq"
mpicc -O2 -o "$work/bin/gsrt-mpi-parts" "$src/tests/mpi/mpi_parts.c"
export PATH="$work/bin:$PATH"
# Open MPI refuses to start as root unless told (the tests run as root).
if [ "$(id -u)" = 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi

run=()
if [ "${mode%-node-lost}" = allocation ]; then
  export SLURM_MPI_TYPE=pmix
  nodes_bed_up
  # Submissions would leave a mark.
  for tool in sbatch qsub; do
    printf '#!/bin/sh\ntouch %s/submitted-%s\nexit 1\n' "$work" "$tool" > "$work/bin/$tool"
    chmod +x "$work/bin/$tool"
  done
  printf 'runtime:\n  progress: always\nhosts:\n  - name: alloc\n    adapter: slurm\n    mode: allocation\n    shared_fs: true\n' \
    > "$work/gsrt.yaml"
  run=("$(command -v salloc)" -N 3 -c 2)
  # Without --no-kill Slurm ends the whole allocation once it declares a
  # node down (as on a real site: docs/sites.md).
  [ "$mode" = allocation-node-lost ] && run+=(--no-kill)
elif [ "${mode%-srun}" = nodes ] || [ "$mode" = node-lost ]; then
  # The site's MpiDefault for srun's steps.
  [ "$mode" = nodes-srun ] && export SLURM_MPI_TYPE=pmix
  nodes_bed_up
  printf 'runtime:\n  progress: always\nhosts:\n  - name: cluster\n    adapter: slurm\n    mode: job\n    slots: 8\n    shared_fs: true\n    workdir: %s/cluster\n' \
    "$work" > "$work/gsrt.yaml"
else
  printf 'runtime:\n  progress: always\nhosts:\n  - name: here\n    adapter: local\n    slots: 6\n' > "$work/gsrt.yaml"
fi
status=0
(cd "$work/run" && GSRT_CONFIG="$work/gsrt.yaml" timeout 300 "${run[@]}" "$app" "$mode") \
  > "$work/out" 2> "$work/err" &
pid=$!
if [ "$mode" = allocation-node-lost ]; then
  # The gang's other node runs Open MPI's daemon, a step of its own.
  deadline=$((SECONDS + 120))
  victim=
  until [ -n "$victim" ]; do
    kill -0 "$pid" 2>/dev/null || fail "the run ended before its job ran"
    ((SECONDS < deadline)) || fail "the MPI job did not start in time"
    victim=$(squeue -h -s -o '%j %N' | awk '$1 == "orted" { print $2; exit }')
    [ -n "$victim" ] || sleep 0.2
  done
  nodes_bed_kill "$victim"
fi
if [ "$mode" = node-lost ]; then
  # The bed is this test's alone (RESOURCE_LOCK): the running job is ours.
  deadline=$((SECONDS + 120))
  nodes=
  until [ -n "$nodes" ]; do
    kill -0 "$pid" 2>/dev/null || fail "the run ended before its job ran"
    ((SECONDS < deadline)) || fail "the MPI job did not start in time"
    nodes=$(squeue -h -t running -o '%N')
    [ -n "$nodes" ] || sleep 0.2
  done
  victim=$(scontrol show hostnames "$nodes" | head -n 1)
  nodes_bed_kill "$victim"
fi
wait "$pid" || status=$?
pid=

if [ "$mode" = crash ]; then
  [ "$status" != 0 ] || fail "a job whose rank aborted did not fail the run"
  grep -q "crash" "$work/err" || fail "the message does not name the operation"
  grep -q "MPI job mpirun -n 4" "$work/err" ||
    fail "the message does not name the MPI job: $(cat "$work/err")"
  grep -q "mpirun noticed that process rank 1 .* exited on signal 6 (Aborted)" "$work/err" ||
    fail "the message does not say which rank failed and how: $(cat "$work/err")"
  echo "OK: mpi crash"
  exit 0
fi
[ "$status" = 0 ] || fail "master exited $status"
# node-lost's and nodes-srun's files are nodes' (the ranks only wait
# longer, or start otherwise).
seq_mode=$mode
case $mode in node-lost | nodes-srun | allocation*) seq_mode=nodes ;; esac
(cd "$work/seq" && PATH="$work/bin:$PATH" "$app-sequential" "$seq_mode") > /dev/null 2> "$work/seq.err" ||
  fail "the sequential build failed: $(cat "$work/seq.err")"
files="a.txt b.txt"
[ "${mode#allocation-}" = node-lost ] && files=a.txt
for f in $files; do
  cmp -s "$work/run/$f" "$work/seq/$f" || fail "$f differs from the sequential build's"
done
expected=$(printf 'rank %d of 4\n' 0 1 2 3)
[ "$(cat "$work/run/a.txt")" = "$expected" ] || fail "a.txt: $(cat "$work/run/a.txt")"
if [ "${mode%-srun}" = nodes ] || [ "$mode" = allocation ]; then
  for f in a.hosts b.hosts; do
    [ "$(grep -c . "$work/run/$f")" = 2 ] ||
      fail "the ranks of $f did not run on two nodes: $(cat "$work/run/$f")"
  done
fi
if [ "${mode#allocation-}" = node-lost ]; then
  grep -qx "$victim" "$work/run/a.hosts" &&
    fail "the job's result came from the run on the lost node $victim"
  [ "$(grep -c . "$work/run/a.hosts")" = 2 ] ||
    fail "the job that ran again was not over two nodes: $(cat "$work/run/a.hosts")"
fi
if [ "${mode%-node-lost}" = allocation ]; then
  ls "$work"/submitted-* > /dev/null 2>&1 && fail "gsrt submitted a batch job inside the allocation"
  grep -q "MPI job over 2 nodes" "$work/err" && fail "refused: $(cat "$work/err")"
fi
echo "OK: mpi $mode"
