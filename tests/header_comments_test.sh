#!/usr/bin/env bash
# Headers state the contract; derivations and proofs live in docs/ (issue
# 28): no header of the project's code has a block of 15 or more
# consecutive `//` lines. Headers under tests/, fuzz/ and build folders are
# not checked.
#   header_comments_test.sh SOURCE_DIR
set -euo pipefail
src=${1:?usage: $0 SOURCE_DIR}
cd "$src"
max=14

dirs=()
for d in api runtime adapters sim stubgen tools bench; do
  [[ -d $d ]] && dirs+=("$d")
done
[[ ${#dirs[@]} -gt 0 ]] || { echo "FAIL: no source folder under $src"; exit 1; }

headers=()
while IFS= read -r -d '' f; do
  headers+=("$f")
done < <(find "${dirs[@]}" -type d -name 'build*' -prune -o \
              -type f \( -name '*.h' -o -name '*.hpp' \) -print0 | sort -z)

bad=0
if [[ ${#headers[@]} -gt 0 ]]; then
  # One line per block too long: FILE:LINE N.
  found=$(awk -v max="$max" '
    function flush() {
      if (run > max) print file ":" start " " run
      run = 0
    }
    FNR == 1 { flush(); file = FILENAME }
    /^[[:space:]]*\/\// { if (run == 0) start = FNR; run++; next }
    { flush() }
    END { flush() }
  ' "${headers[@]}")
  while read -r where n; do
    [[ -z $where ]] && continue
    echo "FAIL: $where: a comment block of $n lines (at most $max):" \
         "move the derivation to docs/"
    bad=1
  done <<<"$found"
fi
[[ $bad == 0 ]] || exit 1
echo "OK: no comment block over $max lines in ${#headers[@]} headers"
