#!/usr/bin/env bash
# Smoke test of the gsrt-sim command line: --help of every subcommand, one
# run of each (JSON checked), the Braun MCT reference through the engine,
# and the bad-input exit code 2.
#   gsrt_sim_cli_test.sh PATH/TO/gsrt-sim DATA_DIR (sim/data)
set -euo pipefail
sim=$1
data=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

fail() { echo "FAIL: $*"; for f in out.txt err.txt; do [ -f $f ] && { echo "--- $f"; cat $f; }; done; exit 1; }
run() {
  local want=$1; shift
  local status=0
  timeout 120 "$sim" "$@" > out.txt 2> err.txt || status=$?
  [ "$status" = "$want" ] || fail "gsrt-sim $* exited $status, expected $want"
}
has() { grep -qF -- "$1" "${2:-out.txt}" || fail "'$1' not in ${2:-out.txt}"; }

run 0 --help
for sub in etc dag bot volatile; do has "$sub"; done
for sub in etc dag bot volatile; do
  run 0 "$sub" --help
  has "--seed"
  has "Exit codes"
done

# Every policy gsrt.yaml accepts, one per line with a description; the
# batch ones map a Braun instance below Min-Min's 5,441.43.
run 0 policies
for p in mct min-min sufferage min-min-ls sufferage-ls grank wqdr-ft ip y-iay; do
  grep -q "^$p  *[A-Za-z]" out.txt || fail "policy $p not listed"
done
[ "$(wc -l < out.txt)" -ge 28 ] || fail "fewer than 28 policies"
run 0 etc "$data/braun/u_c_lolo.0" --policy sufferage-ls --json
awk -F'"makespan":' '{split($2, a, ","); exit !(a[1] < 5441.43)}' out.txt ||
  fail "sufferage-ls is not below Min-Min on u_c_lolo.0"

run 0 etc "$data/braun/u_c_lolo.0" --policy mct --json
has '"makespan":6360.05'
has '"tasks_done":512'
run 0 etc "$data/braun/u_c_lolo.0" --policy ftmct --paper003
has "ftmct"
run 0 dag "$data/stg/50/rand0000.stg" --hosts 5 --rewind all --json
has '"gtp-c-r":{"nsl":'
run 0 bot --hosts 4 --tasks 50 --fail 1@100 --json
has '"host_downs":1'
run 0 bot --hosts 4 --tasks 10 --mtbf 500 --mttr 50 --mtbf-spread 0.5 \
  -p wqr-ft/3 -p wqdr-ft --threshold 2 --json
has '"wqr-ft/3":{'
has '"wqdr-ft":{'
has '"replicas":'
run 0 volatile --policy ie --policy y-ie --deadline 2000
has "y-ie"

run 2 etc "$data/braun/u_c_lolo.0" --fail nonsense
has "HOST@TIME" err.txt
run 2 etc "$data/braun/u_c_lolo.0" --policy best
has "unknown scheduling policy" err.txt
run 2 dag "$data/stg/50/rand0000.stg" --hosts 5 --fail 9@10
has "host 9" err.txt
run 2 bot --hosts 2 --tasks 2 -p wqr-ft/0
has "threshold" err.txt
run 2 bot --hosts 2 --tasks 2 --mtbf 100 --mtbf-spread 1
has "mtbf-spread" err.txt
echo PASS
