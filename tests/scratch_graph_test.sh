#!/usr/bin/env bash
# The scratch example reuses one file name in every iteration; with renaming
# the only edges of its task graph are true (read after write) dependencies:
# simulate -> reduce -> collect, collect -> collect, and none into simulate.
set -euo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
GSRT_DOT=graph.dot "$1" 5 1000 > /dev/null 2> err.txt || { cat err.txt; exit 1; }
simulates=$(grep -c 'label="simulate' graph.dot)
[ "$simulates" = 5 ] || { echo "FAIL: expected 5 simulate nodes, got $simulates"; exit 1; }
for node in $(grep 'label="simulate' graph.dot | sed 's/^ *\(t[0-9]*\) .*/\1/'); do
  if grep -q -- "-> $node;" graph.dot; then
    echo "FAIL: $node (simulate) has an incoming edge: writes of scratch.dat were serialised"
    exit 1
  fi
done
edges=$(grep -c -- '->' graph.dot)
# 5 simulate->reduce, 5 reduce->collect, 4 collect->collect
[ "$edges" = 14 ] || { echo "FAIL: expected 14 edges, got $edges"; cat graph.dot; exit 1; }
echo "OK: $simulates simulate tasks with no incoming edge, $edges true dependencies"
