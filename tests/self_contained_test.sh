#!/usr/bin/env bash
# Checks that the build and the tests read nothing beside the clone: no
# compile definition or test argument names a path outside the source and
# build trees that sits next to the clone (a data folder beside it), and no
# CMake file or script builds a path above the source tree.
#
#   self_contained_test.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$(realpath "$1") build=$(realpath "$2")
parent=$(dirname "$src")
bad=0

# Paths the build was configured with: definitions in build.ninja and the
# arguments of every registered test.
mapfile -t paths < <(
  { grep -ho -- '-D[A-Za-z_0-9]*=\\\?"/[^"\\]*' "$build/build.ninja" |
      sed 's/^[^"]*"//'
    find "$build" -name CTestTestfile.cmake -print0 |
      xargs -0 grep -ho '"/[^" ]*"' | tr -d '"'
  } | sort -u)
[ "${#paths[@]}" -gt 0 ] || { echo "FAIL: no paths found in $build"; exit 1; }
for p in "${paths[@]}"; do
  r=$(realpath -m "$p")
  case "$r" in
    "$src"|"$src"/*|"$build"|"$build"/*) ;;
    "$parent"/*) echo "FAIL: the build reads $p ($r), outside the clone"; bad=1 ;;
  esac
done

# CMake files and scripts that build a path above the source tree.
if hits=$(cd "$src" && grep -rnE --exclude-dir=.git --exclude-dir='build*' \
            --include='*.cmake' --include=CMakeLists.txt --include='*.sh' \
            --exclude=self_contained_test.sh \
            '(SOURCE_DIR\}|\$src|\$root)/\.\./' .); then
  echo "FAIL: files name a directory beside the clone:"
  echo "$hits"
  bad=1
fi
[ "$bad" = 0 ] || exit 1
echo "OK: ${#paths[@]} configured paths, all inside $src or $build"
