#!/usr/bin/env bash
# Every C function that libgsrt and a generated worker import must be a name
# gsstubgen refuses for an operation: otherwise the generated extern "C"
# function would replace it inside the runtime (issue 12: an operation
# named `close` made the master fail with "close called before GS_On()").
#   library_names_test.sh GSSTUBGEN LIBGSRT WORKER
set -euo pipefail
gsstubgen=$1
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# C symbols (not C++-mangled, not reserved _names) the binaries need.
names=$(for bin in "$@"; do nm -D --undefined-only "$bin"; done |
  awk '{print $2}' | sed 's/@.*//' | grep -E '^[A-Za-z][A-Za-z0-9_]*$' |
  grep -v -E '^(GS_|gs_)' | sort -u)
count=0 missing=""
for name in $names; do
  printf 'interface t {\n  void %s(in int x);\n};\n' "$name" > "$work/t.idl"
  if "$gsstubgen" -o "$work/out" "$work/t.idl" > /dev/null 2> "$work/err"; then
    missing="$missing $name"
  elif ! grep -q "library function\|reserved" "$work/err"; then
    echo "FAIL: '$name' refused for another reason:"; cat "$work/err"; exit 1
  fi
  count=$((count + 1))
done
[ "$count" -gt 50 ] || { echo "FAIL: only $count imported names found"; exit 1; }
if [ -n "$missing" ]; then
  echo "FAIL: gsstubgen accepts operations named after functions the runtime"
  echo "imports; add them to stubgen/library_names.cc:$missing"
  exit 1
fi
echo "OK: all $count imported C functions are refused as operation names"
