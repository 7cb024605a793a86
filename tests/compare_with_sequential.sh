#!/usr/bin/env bash
# Runs a gsrt master and its NAME-sequential build (same master, functions
# linked in, calls run in order) in two fresh directories and checks that
# they leave byte-identical files, and that gsrt left nothing else than its
# .gsrt/ directory.
#
#   compare_with_sequential.sh MASTER SEQUENTIAL [ARGS...]
set -euo pipefail
master=$1 sequential=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/parallel" "$work/sequential"
(cd "$work/parallel" && GSRT_DOT="$work/graph.dot" "$master" "$@") > "$work/parallel.out" 2> "$work/parallel.err" ||
  { echo "FAIL: $master exited $?"; cat "$work/parallel.err"; exit 1; }
(cd "$work/sequential" && "$sequential" "$@") > "$work/sequential.out" 2>&1 ||
  { echo "FAIL: $sequential exited $?"; cat "$work/sequential.out"; exit 1; }
if ! diff -r --exclude=.gsrt "$work/parallel" "$work/sequential"; then
  echo "FAIL: files differ from the sequential run"
  exit 1
fi
if ! diff "$work/parallel.out" "$work/sequential.out"; then
  echo "FAIL: standard output differs from the sequential run"
  exit 1
fi
[ -d "$work/parallel/.gsrt" ] || { echo "FAIL: no .gsrt directory"; exit 1; }
[ -f "$work/parallel/.gsrt/history.db" ] || { echo "FAIL: no history"; exit 1; }
[ ! -e "$work/parallel/.gsrt/data" ] || { echo "FAIL: .gsrt/data left behind"; exit 1; }
mode=$(stat -c %a "$work/parallel/.gsrt")
[ "$mode" = 700 ] || { echo "FAIL: .gsrt has mode $mode, expected 700"; exit 1; }
grep -q '^digraph' "$work/graph.dot" || { echo "FAIL: GSRT_DOT not written"; exit 1; }
count=$(find "$work/parallel" -path "$work/parallel/.gsrt" -prune -o -type f -print | wc -l)
echo "OK: $count files identical to the sequential run"
cat "$work/parallel.out"
tail -n 3 "$work/parallel.err"
