#!/usr/bin/env bash
# What the docs name is in the repository: every path a page writes under
# one of the project's folders (runtime/engine/dispatcher.h, a module as
# runtime/engine/job_numbers, runtime/history/journal.{h,cc}, a pattern as
# tests/ssh_*_test.cc or fuzz/corpus/NAME/) is a file or folder, or names
# one with .h or .cc added, or (a pattern) matches one.
#   doc_paths_test.sh SOURCE_DIR DOC...   (DOC relative to SOURCE_DIR)
set -euo pipefail
src=${1:?usage: $0 SOURCE_DIR DOC...}
shift
cd "$src"

# Whether one path (no braces) is there; NAME-like words and * ? [ are
# patterns.
exists() {
  local path=$1 pattern candidate
  pattern=$(sed -E 's#(^|/)[A-Z][A-Z_]*(/|$)#\1*\2#g' <<<"$path")
  for candidate in "$pattern" "$pattern.h" "$pattern.cc"; do
    compgen -G "$candidate" >/dev/null && return 0
  done
  return 1
}

missing=0
checked=0
for doc in "$@"; do
  while read -r path; do
    path=${path%.}
    [[ -z $path ]] && continue
    checked=$((checked + 1))
    found=1
    if [[ $path == *'{'*'}'* ]]; then
      stem=${path%%\{*}
      rest=${path#*\{}
      alts=${rest%%\}*}
      suffix=${rest#*\}}
      for alt in ${alts//,/ }; do exists "$stem$alt$suffix" || found=0; done
    else
      exists "$path" || found=0
    fi
    if [[ $found == 0 ]]; then
      echo "FAIL: $doc names $path, which is not in the repository" >&2
      missing=1
    fi
  done < <(grep -oE '(^|[^[:alnum:]_./-])(api|runtime|adapters|sim|stubgen|tools|tests|fuzz|bench|examples|scripts|cmake|docs)/[][[:alnum:]_./+{},*?-]*[][[:alnum:]_}/*?]' "$doc" |
           sed -E 's/^[^a-z]//' | sort -u)
done
[[ $missing == 0 ]] || exit 1
echo "OK: $checked paths named in $# pages exist"
