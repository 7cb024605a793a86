#!/usr/bin/env bash
# Results that last across runs (docs/reuse.md, issue 31), with the tally
# application (tests/reuse): runs of one work dir with reuse on, each
# checked against the history's count of the tasks that ran and were
# reused, and the files against the sequential build's.
#   reuse_test.sh SRC TALLY TALLY_SEQUENTIAL TALLY_CHANGED MODE [TESTBED_DIR]
# MODE: local (the master's cores), ssh (two sshd hosts that do not share
# the master's files: outputs come to the master's store), slurm (job mode
# on the local Slurm; needs TESTBED_DIR; runs 1-5 only).
#  1. first run: every task runs;
#  2. nothing changed: only `stamp` (never_reuse) runs;
#  3. one account edited: exactly its clean, total, the merges from it on,
#     lines and stamp run;
#  4. an edit clean() removes (a comment): clean runs, produces the same
#     bytes, and its readers are reused (early cutoff);
#  5. a stored result deleted from the store: its task runs again;
#  6. GSRT_REUSE=0: everything runs, nothing is reused;
#  7. the worker rebuilt with total() changed (TALLY_CHANGED): exactly the
#     totals and what reads them run (each operation's code is known apart,
#     docs/reuse.md), GSRT_REUSE=explain says total's code changed; the
#     files are the changed build's;
#  8. the first build again: its results are still there, reused;
#  9. gsrt tasks --reused, show, cache list and show say so; after cache gc
#     --limit 1 and after cache clear every task runs.
# GSRT_COMMAND names the gsrt command (default: gsrt on the PATH).
set -euo pipefail
source "$(dirname "$0")/lib/host_jobs.sh"
src=$1 tally=$2 sequential=$3 changed=$4 mode=$5 testbed=${6:-}
GSRT_COMMAND=${GSRT_COMMAND:-gsrt}
work=$(mktemp -d)
host="reuse-$mode-$$"
n=6
tasks=$((3 * n + 2))
cleanup() {
  if [ "$mode" = slurm ]; then cancel_host_jobs "$host"; fi
  if [ "$mode" = ssh ]; then
    bash "$src/tests/testbed/sshd.sh" stop "$work/sshd" > /dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; tail -20 "$work/err" 2>/dev/null || true; exit 1; }

{
  echo "runtime:"
  echo "  reuse: true"
  echo "  never_reuse: [stamp]"
} > "$work/gsrt.yaml"
if [ "$mode" = ssh ]; then
  GSRT_SSHD_PORT=auto bash "$src/tests/testbed/sshd.sh" start 2 "$work/sshd" > /dev/null
  grep -v '^#' "$work/sshd/gsrt.yaml" >> "$work/gsrt.yaml"
elif [ "$mode" = slurm ]; then
  bash "$src/tests/testbed/slurm.sh" start "$testbed" > /dev/null
  source "$testbed/slurm.env"
  printf 'hosts:\n  - name: %s\n    adapter: slurm\n    mode: job\n    slots: 2\n    shared_fs: true\n' "$host" >> "$work/gsrt.yaml"
else
  printf 'hosts:\n  - name: %s\n    adapter: local\n    slots: 2\n' "$host" >> "$work/gsrt.yaml"
fi
export GSRT_CONFIG="$work/gsrt.yaml"
mkdir -p "$work/run/accounts"
for k in $(seq 0 $((n - 1))); do
  printf '# account %s\n%s\n%s\n\n%s\n' "$k" $((k * 10)) $((k + 3)) 7 \
    > "$work/run/accounts/$k.txt"
done
db="$work/run/.gsrt/history.db"

# Runs the master ($1: the binary), then checks its counts: $2 tasks run,
# $3 reused (from the history), and the files against the sequential
# build's ($4: that build, default the first).
run=0
run_and_count() {
  local bin=$1 want_ran=$2 want_reused=$3 seq=${4:-$sequential}
  run=$((run + 1))
  (cd "$work/run" && timeout 300 "$bin" $n) > "$work/out" 2> "$work/err" ||
    fail "run $run exited $?"
  local id ran reused
  id=$(sqlite3 "$db" "select max(id) from runs")
  ran=$(sqlite3 "$db" "select count(distinct task_id) from jobs where run_id = $id and outcome = 'ok'")
  reused=$(sqlite3 "$db" "select count(*) from run_tasks where run_id = $id and state = 'reused'")
  [ "$ran" = "$want_ran" ] && [ "$reused" = "$want_reused" ] ||
    fail "run $run: $ran tasks ran and $reused were reused; expected $want_ran and $want_reused"
  if [ "$reused" -gt 0 ]; then
    grep -qF "gsrt:   $tasks tasks: $ran run, $reused reused from earlier runs" "$work/err" ||
      fail "run $run: the summary does not count the reused tasks apart"
  fi
  rm -rf "$work/seq"
  mkdir "$work/seq"
  cp -r "$work/run/accounts" "$work/seq/"
  (cd "$work/seq" && "$seq" $n) > "$work/seq_out"
  cmp -s "$work/out" "$work/seq_out" || fail "run $run: output differs from the sequential build's"
  diff -r --exclude=.gsrt --exclude=stamp.txt "$work/run" "$work/seq" > /dev/null ||
    fail "run $run: files differ from the sequential build's"
  echo "run $run: $ran ran, $reused reused"
}

run_and_count "$tally" "$tasks" 0
cp "$work/run/stamp.txt" "$work/stamp1"
run_and_count "$tally" 1 $((tasks - 1))
cmp -s "$work/run/stamp.txt" "$work/stamp1" && fail "stamp (never_reuse) did not run again"

# Account 2 edited: clean 2, total 2, merges 2..n-1, lines, stamp.
printf '5\n' >> "$work/run/accounts/2.txt"
want=$((2 + (n - 2) + 2))
run_and_count "$tally" $want $((tasks - want))

# A comment added: clean 4 runs and writes what it wrote before.
printf '# only a comment\n' >> "$work/run/accounts/4.txt"
run_and_count "$tally" 2 $((tasks - 2))

# The stored copy of total 3's output deleted: total 3 runs again, and
# writes the same bytes (its readers are reused).
sum=$(sha256sum "$work/run/sum 3.txt" | cut -c1-32)
blob=$(ls "$work/run/.gsrt/store/${sum:0:2}/$sum-"* 2> /dev/null) ||
  fail "total 3's output is not in the store as its content names it"
rm -f "$blob"
run_and_count "$tally" 2 $((tasks - 2))

# What follows does not depend on where jobs run: local and ssh check it,
# Slurm (whose jobs take longest) stops here.
if [ "$mode" = slurm ]; then
  echo "OK: reuse slurm (runs 1-5; the rest runs locally and on ssh)"
  exit 0
fi

# Reuse off for one run: everything runs.
GSRT_REUSE=0 run_and_count "$tally" "$tasks" 0

# total() changed and rebuilt: the totals, the merges that read them, lines
# and stamp run; the cleans are reused. explain says why.
GSRT_REUSE=explain run_and_count "$changed" $((2 * n + 2)) "$n" "$changed-sequential"
grep -q "gsrt: reuse: task [0-9]* (total) runs: its function's code changed" "$work/err" ||
  fail "explain does not say total's code changed: $(grep 'reuse:' "$work/err" | head -3)"
if grep -q "(clean) runs" "$work/err"; then
  fail "a clean task ran though its code did not change"
fi
# ... and the first build finds its own results again.
run_and_count "$tally" 1 $((tasks - 1))

# What the gsrt command says about them.
cd "$work/run"
reused_lines=$("$GSRT_COMMAND" tasks --reused --json | grep -c '"state": "reused"') || true
[ "$reused_lines" = $((tasks - 1)) ] ||
  fail "gsrt tasks --reused lists $reused_lines tasks, not $((tasks - 1))"
"$GSRT_COMMAND" show | grep -qF "$((tasks - 1)) were reused from earlier runs" ||
  fail "gsrt show does not count the reused tasks: $("$GSRT_COMMAND" show | head -5)"
"$GSRT_COMMAND" cache list > "$work/list" || fail "gsrt cache list failed"
grep -q "^[0-9a-f]\{12\}  total  .*sum 3.txt" "$work/list" ||
  fail "gsrt cache list does not list total's result: $(head -5 "$work/list")"
made=$(grep -m1 "  lines  " "$work/list" | sed 's/.*run \([0-9]*\) task \([0-9]*\).*/\1:\2/')
"$GSRT_COMMAND" cache show "$made" | grep -q "^reads .*'report.txt' s:[0-9a-f]\{32\}:" ||
  fail "gsrt cache show $made does not show what lines read"
# A limit of one byte keeps no file: every task with outputs runs again
# (a result without files, such as lines's, may stay).
"$GSRT_COMMAND" cache gc --limit 1 | grep -q "^dropped [1-9]" || fail "gsrt cache gc dropped nothing"
[ -z "$(find .gsrt/store -type f)" ] || fail "gsrt cache gc --limit 1 left files in the store"
left=$(sqlite3 "$db" "select count(*) from reuse_results")
[ "$left" -le 1 ] || fail "gsrt cache gc --limit 1 left $left results"
cd - > /dev/null
run_and_count "$tally" $((tasks - left)) "$left"
cd "$work/run"
"$GSRT_COMMAND" cache clear | grep -q "^removed" || fail "gsrt cache clear"
[ ! -e .gsrt/store ] || fail "gsrt cache clear left the store"
cd - > /dev/null
run_and_count "$tally" "$tasks" 0
echo "OK: reuse $mode"
