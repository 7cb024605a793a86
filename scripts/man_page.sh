#!/usr/bin/env bash
# Writes the man page of a built gsrt tool with help2man, from the tool's
# own --help and --version, so the page cannot drift from them (the build
# runs this; cmake/gsrtManPages.cmake). For a tool made of subcommands
# (gsdeploy, gsrt, gsrt-sim), each subcommand's --help (and each of its
# own subcommands') becomes a subsection of COMMANDS, since help2man reads
# only the top-level --help.
#   man_page.sh HELP2MAN TOOL NAME SUMMARY OUT
set -euo pipefail
help2man=$1 tool=$2 name=$3 summary=$4 out=$5

include=$(mktemp)
trap 'rm -f "$include"' EXIT
# The subcommands CLI11 lists under "Subcommands:" in `tool WORDS... --help`,
# one per line.
subcommands_of() {
  "$tool" "$@" --help | awk '
    /^Subcommands:/ { on = 1; next }
    on && /^  [A-Za-z]/ { print $1; next }
    on && /^[^ ]/ { on = 0 }'  # reads on: an early exit is SIGPIPE for the tool
}
# A subsection for `tool WORDS...`, then one for each of its own
# subcommands (gsrt testbed start, ...).
add_section() {
  printf '.SS "%s %s"\n.nf\n' "$name" "$*" >> "$include"
  # Backslashes, and lines starting with a control character, are roff's.
  "$tool" "$@" --help | sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/" \
    >> "$include"
  printf '.fi\n' >> "$include"
  local sub
  for sub in $(subcommands_of "$@"); do add_section "$@" "$sub"; done
}
subcommands=$(subcommands_of)
if [ -n "$subcommands" ]; then
  echo "[COMMANDS]" > "$include"
  for sub in $subcommands; do add_section "$sub"; done
fi
include_args=()
[ -s "$include" ] && include_args=(--include="$include")
mkdir -p "$(dirname "$out")"
"$help2man" --no-info --name="$summary" "${include_args[@]}" \
  --output="$out.tmp" "$tool"
mv "$out.tmp" "$out"
