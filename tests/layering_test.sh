#!/usr/bin/env bash
# Checks one rule of the layering (cmake/gsrtLayers.cmake): compiling an
# include of HEADER with a layer's include roots either works (allowed) or
# fails with "No such file or directory" (forbidden), as the layer's own
# sources would.
#
#   layering_test.sh COMPILER allowed|forbidden HEADER -IDIR...
set -euo pipefail
compiler=$1 expect=$2 header=$3
shift 3
src=$(mktemp --suffix=.cc)
trap 'rm -f "$src"' EXIT
printf '#include "%s"\n' "$header" > "$src"
if out=$("$compiler" -std=c++20 -E -o /dev/null "$@" "$src" 2>&1); then
  result=allowed
else
  result=forbidden
  grep -q "$header: No such file or directory" <<< "$out" || {
    echo "FAIL: $header did not compile for another reason:"
    echo "$out"
    exit 1
  }
fi
if [ "$result" != "$expect" ]; then
  echo "FAIL: including $header is $result, should be $expect"
  echo "$out"
  exit 1
fi
echo "OK: $header $result"
