#!/usr/bin/env bash
# Installs gsrt from BUILD_DIR into a temporary prefix, builds the ledger
# application outside the tree with find_package(gsrt) and
# gsrt_add_application, and checks its run against its sequential build.
#
#   outoftree_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
# Every manual a tool's --help names is installed where it says.
for tool in gsdeploy gsrt-sim; do
  manual=$(LD_LIBRARY_PATH="$work/prefix/lib" "$work/prefix/bin/$tool" --help | sed -n 's/^Manual: \([^,]*\),.*/\1/p')
  [ -n "$manual" ] || { echo "FAIL: $tool --help names no manual"; exit 1; }
  [ -f "$work/prefix/share/doc/gsrt/$manual" ] ||
    { echo "FAIL: $tool --help names $manual, not in share/doc/gsrt"; exit 1; }
done
# A man page per installed tool (unless the build was told not to make them).
if grep -q '^GSRT_MAN_PAGES:BOOL=ON' "$build/CMakeCache.txt"; then
  for tool in "$work"/prefix/bin/*; do
    [ -s "$work/prefix/share/man/man1/$(basename "$tool").1" ] ||
      { echo "FAIL: no man page for $(basename "$tool") in share/man/man1"; exit 1; }
  done
fi
[ -f "$work/prefix/share/gsrt/data/braun/u_c_lolo.0" ] ||
  { echo "FAIL: gsrt-sim's data is not installed in share/gsrt/data"; exit 1; }
cmake -S "$src/tests/outoftree/ledger" -B "$work/ledger" -G Ninja \
  -DCMAKE_PREFIX_PATH="$work/prefix" > "$work/configure.log" ||
  { cat "$work/configure.log"; exit 1; }
cmake --build "$work/ledger" > "$work/build.log" || { cat "$work/build.log"; exit 1; }
for exe in ledger ledger-worker ledger-sequential; do
  [ -x "$work/ledger/$exe" ] || { echo "FAIL: $exe not built"; exit 1; }
done
bash "$src/tests/compare_with_sequential.sh" "$work/ledger/ledger" "$work/ledger/ledger-sequential"
