#!/bin/bash
# No Engine function is longer than a screen: measures every `Engine::`
# function definition in the engine's sources (from its first line to its
# closing brace, clang-formatted code) and fails naming any over the limit.
#   engine_function_length_test.sh DIR [LIMIT]   (LIMIT: 60 lines)
# With -v first, lists every function, longest first.
set -euo pipefail
verbose=0
if [[ "${1:-}" == -v ]]; then verbose=1; shift; fi
dir=${1:?usage: $0 [-v] DIR [LIMIT]}
limit=${2:-60}

sizes=$(for f in "$dir"/*.cc; do
  [[ "$f" == *_test.cc ]] && continue
  awk -v file="$(basename "$f")" '
    # A definition starts at column 0 with Engine::Name( and is no
    # declaration; it ends at the first "}" at column 0.
    start == 0 && /^[A-Za-z].*Engine::~?[A-Za-z_]+\(/ && !/;[ \t]*$/ {
      start = FNR
      name = $0
      sub(/\(.*/, "", name)
      sub(/.*Engine::/, "", name)
      if ($0 ~ /\{.*\}[ \t]*$/) { print 1, file, name; start = 0 }
      next
    }
    start > 0 && /^}/ { print FNR - start + 1, file, name; start = 0 }
    END { if (start > 0) print "unterminated", file, name }
  ' "$f"
done | sort -rn)

if [[ $verbose == 1 ]]; then echo "$sizes"; fi
count=$(grep -c . <<<"$sizes" || true)
if grep -q '^unterminated' <<<"$sizes"; then
  echo "FAIL: cannot find the end of: $(grep '^unterminated' <<<"$sizes")"
  exit 1
fi
# The measure must see the engine at all: Start is always there.
if ! grep -q ' Start$' <<<"$sizes"; then
  echo "FAIL: no Engine::Start found in $dir ($count definitions)"
  exit 1
fi
long=$(awk -v limit="$limit" '$1 > limit' <<<"$sizes")
if [[ -n "$long" ]]; then
  echo "FAIL: Engine functions over $limit lines (lines, file, function):"
  echo "$long"
  exit 1
fi
echo "OK: $count Engine functions, none over $limit lines; the longest:" \
  "$(head -1 <<<"$sizes")"
