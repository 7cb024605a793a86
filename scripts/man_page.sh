#!/usr/bin/env bash
# Writes the man page of a built gsrt tool with help2man, from the tool's
# own --help and --version, so the page cannot drift from them (the build
# runs this; cmake/gsrtManPages.cmake). For a tool made of subcommands
# (gsdeploy, gsrt, gsrt-sim), each subcommand's --help becomes a
# subsection of COMMANDS, since help2man reads only the top-level --help.
#   man_page.sh HELP2MAN TOOL NAME SUMMARY OUT
set -euo pipefail
help2man=$1 tool=$2 name=$3 summary=$4 out=$5

include=$(mktemp)
trap 'rm -f "$include"' EXIT
# The subcommands CLI11 lists under "Subcommands:", one per line.
subcommands=$("$tool" --help | awk '
  /^Subcommands:/ { on = 1; next }
  on && /^  [A-Za-z]/ { print $1; next }
  on && /^[^ ]/ { on = 0 }')  # reads on: an early exit is SIGPIPE for the tool
if [ -n "$subcommands" ]; then
  echo "[COMMANDS]" > "$include"
  for sub in $subcommands; do
    printf '.SS "%s %s"\n.nf\n' "$name" "$sub" >> "$include"
    # Backslashes, and lines starting with a control character, are roff's.
    "$tool" "$sub" --help | sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/" \
      >> "$include"
    printf '.fi\n' >> "$include"
  done
fi
include_args=()
[ -s "$include" ] && include_args=(--include="$include")
mkdir -p "$(dirname "$out")"
"$help2man" --no-info --name="$summary" "${include_args[@]}" \
  --output="$out.tmp" "$tool"
mv "$out.tmp" "$out"
