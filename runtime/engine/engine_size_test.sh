#!/bin/bash
# The engine stays a few objects that own their state: Engine has at most
# 20 data members and 50 methods, and no other class or struct of
# runtime/engine (a collaborator or a record) more than 25 data members. Counted by
# Universal Ctags over the engine's headers; members of nested types count
# for the nested type. docs/design.md gives the same command.
#   engine_size_test.sh DIR      prints every type's counts with -v first
set -euo pipefail
verbose=0
if [[ "${1:-}" == -v ]]; then verbose=1; shift; fi
dir=${1:?usage: $0 [-v] DIR}
ctags=$(command -v ctags-universal || command -v ctags || true)
if [[ -z $ctags ]]; then
  echo "engine_size_test: ctags is missing (apt-get install universal-ctags)" >&2
  exit 1
fi

# The thread-safety annotations (runtime/base/thread_annotations.h) read
# as nothing, as for a compiler without them: `T x_ GUARDED_BY(mu_);` is a
# data member, not a function.
annotations=$(sed -n 's/^#define \([A-Z_]*\)\((x)\|(\.\.\.)\)\{0,1\} .*/\1\2/p' \
  "$dir/../base/thread_annotations.h" | grep -v '^GSRT_')
defines=()
for a in $annotations; do defines+=(-D "$a="); done

# "members methods Type" per type of the gs namespace.
counts=$("$ctags" -f - --fields=K+s --c++-kinds=+pm --language-force=C++ \
    "${defines[@]}" "$dir"/*.h |
  awk -F'\t' '
    $NF ~ /^(class|struct):gs::[A-Za-z_]+$/ {
      type = $NF
      sub(/^[a-z]+:gs::/, "", type)
      seen[type] = 1
      if ($(NF - 1) == "member") members[type]++
      else if ($(NF - 1) == "prototype" || $(NF - 1) == "function")
        methods[type]++
    }
    END { for (t in seen) printf "%d %d %s\n", members[t], methods[t], t }' |
  sort -rn)
[[ $verbose == 1 ]] && echo "$counts"

read -r engine_members engine_methods < <(awk '$3 == "Engine" { print $1, $2 }' <<<"$counts")
if [[ -z "${engine_members:-}" ]]; then
  echo "engine_size_test: no class Engine found in $dir" >&2
  exit 1
fi
bad=0
if (( engine_members > 20 || engine_methods > 50 )); then
  echo "Engine has $engine_members data members and $engine_methods methods" \
       "(at most 20 and 50): give the new state to a collaborator" >&2
  bad=1
fi
while read -r members methods type; do
  [[ $type == Engine ]] && continue
  if (( members > 25 )); then
    echo "$type has $members data members (at most 25): split it" >&2
    bad=1
  fi
done <<<"$counts"
(( bad == 0 )) || exit 1
echo "OK: Engine has $engine_members data members and $engine_methods methods"
