#!/usr/bin/env bash
# `gsrt --version --verbose` names the glibc and libstdc++ versions each
# program needs, as objdump reads them from the same files: the highest
# GLIBC_ and GLIBCXX_ version references of gsrt and gsrt-agent.
#   version_verbose_test.sh GSRT GSRT_AGENT
set -euo pipefail
gsrt=$1 agent=$2
report=$(GSRT_AGENT="$agent" "$gsrt" --version --verbose)
echo "$report"
highest() {  # highest FILE LIBRARY PREFIX: objdump's highest version needed
  objdump -p "$1" | awk -v lib="$2" -v prefix="$3" '
    /required from/ { from = ($3 == lib ":") ; next }
    from && $NF ~ ("^" prefix "[0-9]") { sub(prefix, "", $NF); print $NF }' |
    sort -V | tail -n 1
}
for program in gsrt gsrt-agent; do
  file=$gsrt
  [ "$program" = gsrt ] || file=$agent
  glibc=$(highest "$file" libc.so.6 GLIBC_)
  cxx=$(highest "$file" libstdc++.so.6 GLIBCXX_)
  [ -n "$glibc" ] && [ -n "$cxx" ] || { echo "FAIL: objdump found no versions in $file"; exit 1; }
  line=$(grep "^  $program " <<< "$report") || { echo "FAIL: no line for $program"; exit 1; }
  [[ $line == *"glibc >= $glibc, libstdc++ >= $cxx "* ]] ||
    { echo "FAIL: $program: expected glibc >= $glibc, libstdc++ >= $cxx; got: $line"; exit 1; }
done
grep -q "^  libgsrt .*glibc >= " <<< "$report" || { echo "FAIL: no needs for libgsrt"; exit 1; }
echo "OK: the versions gsrt --version --verbose names are objdump's"
