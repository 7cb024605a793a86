#!/usr/bin/env bash
# The cost of losing a host mid-run, on a real DAG on real hosts (the
# master plus three sshd hosts on 127.0.0.2-4, started here), in one run:
#   (n) the DAG without failure;
#   (r) the same DAG with node2 SIGKILLed (sshd and everything under it)
#       once half the tasks are done: gsrt rewinds (GTP/c/r) and goes on;
#   (s) restart from scratch (DAGMan-rescue style without a rescue file):
#       the time to the failure plus a whole run on the hosts that remain.
# The DAG is tests/faults' pipeline: WIDTH independent chains of LEVELS
# steps (WIDTH * (LEVELS + 1) tasks, default 25 * 40 + 25 = 1,025), each
# step sleeping WORK_MS. Prints makespans, AET (paper 000: NSL_r - NSL,
# NSL = makespan / critical path, the critical path being LEVELS * WORK_MS)
# and the RT/LR the runtime reported.
#
#   bench/rewind_bench.sh BUILD_DIR [WIDTH] [LEVELS] [WORK_MS] [ROUNDS (3)]
set -euo pipefail
build=$(cd "$1" && pwd)
width=${2:-25} levels=${3:-40} work_ms=${4:-30} rounds=${5:-3}
src=$(cd "$(dirname "$0")/.." && pwd)
master=$build/tests/faults
port=${GSRT_BENCH_PORT:-2397}
work=$(mktemp -d)
stop() { GSRT_SSHD_PORT=$port bash "$src/tests/testbed/sshd.sh" stop "$work/sshd" >/dev/null 2>&1 || true; [ -n "${GSRT_BENCH_KEEP:-}" ] && echo "kept $work" || rm -rf "$work"; }
trap stop EXIT
[ -x "$master" ] || { echo "build the faults test program first: ninja -C $build faults"; exit 1; }
GSRT_SSHD_PORT=$port bash "$src/tests/testbed/sshd.sh" start 3 "$work/sshd" >/dev/null
config() {  # config FILE [HOSTS TO DROP...]
  local out=$1; shift
  {
    echo "runtime:"
    echo "  heartbeat: 1"
    echo "  progress: never"
    echo "hosts:"
    echo "  - name: master"
    echo "    adapter: local"
    echo "    slots: 1"
    grep -v '^#' "$work/sshd/gsrt.yaml" | grep -v '^hosts:'
  } > "$out"
  for drop in "$@"; do
    # Each host is a block of lines starting at "  - name: NAME".
    awk -v h="$drop" '/^  - name: /{skip = ($3 == h)} !skip' "$out" > "$out.tmp" && mv "$out.tmp" "$out"
  done
}
config "$work/all.yaml"
config "$work/without-node2.yaml" node2
tasks=$((width * (levels + 1)))
now() { date +%s.%N; }
run() {  # run NAME CONFIG [KILL]: prints the makespan
  local dir="$work/$1" config=$2 kill=${3:-} start end pid
  rm -rf "$dir" && mkdir -p "$dir"
  start=$(now)
  (cd "$dir" && GSRT_CONFIG="$config" "$master" "$width" "$levels" "$work_ms" > "$dir.out" 2> "$dir.err") &
  pid=$!
  if [ -n "$kill" ]; then
    # Half the tasks done: the history has that many successful jobs.
    for _ in $(seq 1 2400); do
      done_jobs=$(sqlite3 "$dir/.gsrt/history.db" "select count(*) from jobs where outcome='ok'" 2>/dev/null || echo 0)
      [ "${done_jobs:-0}" -ge $((tasks / 2)) ] && break
      sleep 0.05
    done
    kill_time=$(now)
    local listener victims
    listener=$(cat "$work/sshd/host2/sshd.pid")
    descendants() { for c in $(pgrep -P "$1"); do echo "$c"; descendants "$c"; done; }
    victims="$listener $(descendants "$listener")"
    kill -KILL $victims 2>/dev/null || true
    echo "$kill_time" > "$work/kill_time"
  fi
  wait "$pid" || { echo "run $1 failed:"; tail "$dir.err"; exit 1; }
  end=$(now)
  echo "$start $end"
}
echo "rewind_bench: $tasks tasks ($width chains x $levels steps of $work_ms ms + seeds), master + 3 ssh hosts"
# Rounds interleave the three cases so that load from elsewhere hits them
# alike; each case keeps its fastest round.
best_n= best_s= best_r= best_k=
for round in $(seq 1 "$rounds"); do
  read -r n0 n1 < <(run nofail "$work/all.yaml")
  read -r s0 s1 < <(run scratch "$work/without-node2.yaml")
  GSRT_SSHD_PORT=$port bash "$src/tests/testbed/sshd.sh" start 3 "$work/sshd" >/dev/null
  read -r r0 r1 < <(run rewind "$work/all.yaml" kill)
  k=$(echo "$(cat "$work/kill_time") - $r0" | bc -l)
  diff -r --exclude=.gsrt "$work/nofail" "$work/rewind" > /dev/null || { echo "FAIL: the rewound run's files differ"; exit 1; }
  rtlr=$(grep -o "rewinding [0-9]* tasks (RT), [0-9]* levels (LR)" "$work/rewind.err" | head -1)
  printf "  round %d: no failure %.2f s, restart run %.2f s, rewinding %.2f s (node2 killed at %.2f s: %s)\n" \
    "$round" "$(echo "$n1 - $n0" | bc -l)" "$(echo "$s1 - $s0" | bc -l)" "$(echo "$r1 - $r0" | bc -l)" "$k" "$rtlr"
  pick() { [ -z "$1" ] || [ "$(echo "$2 < $1" | bc -l)" = 1 ] && echo "$2" || echo "$1"; }
  best_n=$(pick "$best_n" "$(echo "$n1 - $n0" | bc -l)")
  best_s=$(pick "$best_s" "$(echo "$s1 - $s0" | bc -l)")
  new_r=$(echo "$r1 - $r0" | bc -l)
  if [ -z "$best_r" ] || [ "$(echo "$new_r < $best_r" | bc -l)" = 1 ]; then best_r=$new_r best_k=$k best_rtlr=$rtlr; fi
done
awk -v n="$best_n" -v r="$best_r" -v sr="$best_s" -v k="$best_k" \
    -v cp="$(echo "$levels * $work_ms / 1000" | bc -l)" -v rtlr="$best_rtlr" 'BEGIN {
  s = k + sr
  printf "  best of %d rounds:\n", '"$rounds"'
  printf "  (n) no failure:              %7.2f s  NSL %.2f\n", n, n / cp
  printf "  (r) node2 lost, rewinding:   %7.2f s  NSL %.2f  AET %.2f  extra %+.2f s (%+.0f%%)\n", r, r / cp, (r - n) / cp, r - n, 100 * (r - n) / n
  printf "  (s) restart from scratch:    %7.2f s  NSL %.2f  AET %.2f  extra %+.2f s (%+.0f%%)\n", s, s / cp, (s - n) / cp, s - n, 100 * (s - n) / n
  printf "  node2 killed %.2f s into (r); runtime reported: %s\n", k, rtlr
}'
