#!/usr/bin/env bash
# Each tool's man page (cmake/gsrtManPages.cmake) exists, is a real page
# (NAME, DESCRIPTION and OPTIONS sections, the tool's version, some
# length) and names every option the tool's --help lists, and every
# option of each of its subcommands (and of theirs).
#   man_pages_test.sh MAN_DIR TOOL...
set -euo pipefail
man_dir=$1
shift
fail() { echo "FAIL: $*"; exit 1; }

# The options a --help text defines: CLI11 lists each on a line starting
# with two blanks and a dash ("  -o,--output DIR   ...").
options_of() {
  awk '/^  -/ { print $1 }' | tr ',' '\n' | grep -E '^--?[A-Za-z]' | sort -u
}

# The subcommands a --help text lists under "Subcommands:".
subcommands_in() {
  awk '/^Subcommands:/ { on = 1; next }
    on && /^  [A-Za-z]/ { print $1; next } on && /^[^ ]/ { exit }' <<< "$1"
}

# (Here-strings, not `echo | grep -q`: grep -q leaves at the first match
# and pipefail would count echo's SIGPIPE as a failure.)
for tool in "$@"; do
  name=$(basename "$tool")
  page="$man_dir/man1/$name.1"
  [ -s "$page" ] || fail "$page is missing or empty"
  # The page as text: roff's font changes and escaped dashes undone.
  text=$(sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g' -e 's/\\e/\\/g' \
    -e 's/\\&//g' "$page")
  for section in NAME DESCRIPTION OPTIONS; do
    grep -q "^\.SH $section" "$page" || fail "$page has no $section section"
  done
  version=$("$tool" --version | head -1)
  grep -qF "$version" <<< "$text" || fail "$page does not say '$version'"
  lines=$(wc -l < "$page")
  [ "$lines" -ge 20 ] || fail "$page has only $lines lines"

  helps=$("$tool" --help)
  subs=$(subcommands_in "$helps")
  for sub in $subs; do
    grep -qF "$name $sub" <<< "$text" || fail "$page has no section for '$sub'"
    sub_help=$("$tool" "$sub" --help)
    helps+=$'\n'$sub_help
    # Their own subcommands (gsrt testbed start, ...).
    for subsub in $(subcommands_in "$sub_help"); do
      grep -qF "$name $sub $subsub" <<< "$text" ||
        fail "$page has no section for '$sub $subsub'"
      helps+=$'\n'$("$tool" "$sub" "$subsub" --help)
    done
  done
  count=0
  for opt in $(echo "$helps" | options_of); do
    grep -qE -- "(^|[^A-Za-z0-9-])$opt([^A-Za-z0-9-]|\$)" <<< "$text" ||
      fail "$page does not name $opt"
    count=$((count + 1))
  done
  [ "$count" -ge 2 ] || fail "found only $count options in $name --help"
  echo "$name.1: $lines lines, $count options, subcommands:" $subs
done
echo "OK: every man page names every option of its tool"
