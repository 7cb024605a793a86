#!/usr/bin/env bash
# Two builds of gsrt side by side (before and after a change): the engine's
# benchmarks, each build's run alternating with the other's round by round,
# so that the machine's load falls on both alike. Each benchmark carries
# its own baseline, measured in the same process:
#   submit_bench N          submission ns/task against 3 hash lookups/task
#   local_dispatch_bench T 1  no-op jobs/s against a program that exits at once
#   trace_bench T 1         the trace on against off
#   sim_bench H T           the engine in virtual time: events/s, us/task
# Prints each run's summary lines, prefixed with the round and the build;
# compare the ratios (and the CPU figures) more than the wall times. Ends
# with each build's median over the rounds of the figures that matter.
#
#   bench/build_compare.sh BASE_BUILD NEW_BUILD [ROUNDS (default 3)]
#
# Environment: SUBMIT_N (default 100: 1,000,000 calls), DISPATCH_TASKS
# (2000), TRACE_TASKS (3000), SIM_HOSTS (1000), SIM_TASKS (100000).
set -euo pipefail
base=$(cd "${1:?usage: $0 BASE_BUILD NEW_BUILD [ROUNDS]}" && pwd)
new=$(cd "${2:?usage: $0 BASE_BUILD NEW_BUILD [ROUNDS]}" && pwd)
rounds=${3:-3}
submit_n=${SUBMIT_N:-100}
dispatch_tasks=${DISPATCH_TASKS:-2000}
trace_tasks=${TRACE_TASKS:-3000}
sim_hosts=${SIM_HOSTS:-1000}
sim_tasks=${SIM_TASKS:-100000}
for b in "$base" "$new"; do
  for p in submit_bench local_dispatch_bench trace_bench sim_bench; do
    [[ -x $b/bench/$p ]] || {
      echo "build_compare: $b/bench/$p is missing (build it with -DGSRT_BUILD_BENCH=ON)" >&2
      exit 1
    }
  done
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run BUILD NAME ARGS...: the benchmark's summary lines. Each build's own
# libgsrt, whatever the binary's run path says.
run() {
  local build=$1 name=$2
  shift 2
  (cd "$work" && LD_LIBRARY_PATH="$build/runtime:$build" "$build/bench/$name" "$@" 2>&1) |
    grep -E '^(submission|baseline_3)/|ratio[ :]|jobs/s|events in' || true
}

echo "build_compare: $rounds rounds; load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "  base $base"
echo "  new  $new"
log=$work/log
for ((r = 1; r <= rounds; r++)); do
  for side in base new; do
    build=$base
    [[ $side == new ]] && build=$new
    echo "== round $r, $side (load $(cut -d' ' -f1 /proc/loadavg))"
    run "$build" submit_bench "$submit_n" | sed "s/^/  $side submit   /"
    run "$build" local_dispatch_bench "$dispatch_tasks" 1 | sed "s/^/  $side dispatch /"
    run "$build" trace_bench "$trace_tasks" 1 | sed "s/^/  $side trace    /"
    run "$build" sim_bench "$sim_hosts" "$sim_tasks" | sed "s/^/  $side sim      /"
  done
done | tee "$log"

# The median of each figure over the rounds, per build.
echo "== medians over $rounds rounds"
for side in base new; do
  pick() { grep "^  $side $1" "$log" | grep -E "$2" | grep -oE "$3" | grep -oE '[0-9.]+$' | sort -g |
    awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else print v[int((NR + 1) / 2)] }'; }
  printf '  %-4s submit ratio %s (%s ns/task) | persistent ratio %s, fork ratio %s | ' "$side" \
    "$(pick submit 'ratio submission' 'time\): [0-9.]+')" \
    "$(pick submit '^  [a-z]+ submit   submission' 'iterations:[0-9]+ +[0-9.]+')" \
    "$(pick dispatch 'persistent mode' 'ratio [0-9.]+')" \
    "$(pick dispatch 'fork mode' 'ratio [0-9.]+')"
  printf 'trace CPU off %s us/task, on/off %s | sim %s us/task\n' \
    "$(pick trace 'master CPU' 'off [0-9.]+')" \
    "$(pick trace 'master CPU' 'on/off [0-9.]+')" \
    "$(pick sim 'events in' '; [0-9.]+')"
done
