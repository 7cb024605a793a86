#!/usr/bin/env bash
# What gsrt tells a person goes through a MessageSink
# (runtime/base/messages.h): no source in runtime/ or adapters/ writes to
# stderr itself (fprintf, vfprintf, fputs or fwrite on stderr, a call
# wrapped over lines included). Allowed: the sink (runtime/base/messages.cc),
# programs' mains (*_main.cc) and tests (*_test.cc: a test that must end
# the process tells the developer why).
#
#   stderr_writes_test.sh ROOT [NOT_YET_CONVERTED_DIR...]
#
# Each NOT_YET_CONVERTED_DIR (relative to ROOT) is skipped while it still
# writes to stderr; one that no longer does fails the test, so the list is
# emptied as the conversions land.
set -euo pipefail
root=$1
shift
cd "$root"

# file:line: statement, for each statement that writes to stderr. A
# statement is read up to its ';' (or a brace ending a line), so a call
# that clang-format wrapped is still seen whole.
writes() {
  find "$@" -type f \( -name '*.cc' -o -name '*.h' \) -print0 2>/dev/null |
    sort -z |
    xargs -0 -r awk '
      FNR == 1 { acc = "" }
      /^[ \t]*\/\// { next }  # a comment line
      {
        acc = acc " " $0
        if ($0 ~ /;/ || $0 ~ /[{}][ \t]*$/) {
          if (acc ~ /(^|[^A-Za-z_])v?fprintf[ \t]*\([ \t]*stderr/ ||
              acc ~ /(^|[^A-Za-z_])(fputs|fwrite)[ \t]*\([^;]*,[ \t]*stderr[ \t]*\)/) {
            gsub(/[ \t]+/, " ", acc)
            print FILENAME ":" FNR ":" acc
          }
          acc = ""
        }
      }'
}

allowed_always() {
  case "$1" in
    runtime/base/messages.cc | *_main.cc | *_test.cc) return 0 ;;
  esac
  return 1
}

status=0
while IFS= read -r hit; do
  [ -n "$hit" ] || continue
  file=${hit%%:*}
  allowed_always "$file" && continue
  for dir in "$@"; do
    case "$file" in "$dir"/*) continue 2 ;; esac
  done
  echo "FAIL: writes to stderr instead of a MessageSink: $hit"
  status=1
done < <(writes runtime adapters)

for dir in "$@"; do
  left=0
  while IFS= read -r hit; do
    [ -n "$hit" ] || continue
    allowed_always "${hit%%:*}" || left=$((left + 1))
  done < <(writes "$dir")
  if [ "$left" -eq 0 ]; then
    echo "FAIL: $dir writes nothing to stderr any more; take it off the" \
      "not-yet-converted list (tests/CMakeLists.txt)"
    status=1
  else
    echo "not yet converted: $dir ($left writes to stderr)"
  fi
done

if [ "$status" -eq 0 ]; then
  echo "OK: no direct writes to stderr outside the sink and the mains"
fi
exit "$status"
