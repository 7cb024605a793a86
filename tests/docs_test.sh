#!/usr/bin/env bash
# Checks what a reader of the docs and --help texts meets first: each paper
# is cited by authors and title where a page first names it ("paper 003"),
# docs/configuration.md helps choose a policy, and the tools' --help cite
# the papers they name.
#
#   docs_test.sh SOURCE_DIR GSRT_SIM GSDEPLOY
set -euo pipefail
src=$1 sim=$2 deploy=$3
author=(Hernandez Bansal Casanova Panda Anciaux-Sedrakian)
title=("Rewinding and Migration" "WorkQueue with Dynamic Replication"
       "tightly-coupled applications on volatile resources"
       "Fault-Tolerant Immediate Mode Heuristics"
       "job mapping on the reliable grid resources")
bad=0
fail() { echo "FAIL: $*"; bad=1; }

# Offset of the first match of `pattern` in `text` (case-insensitive), or -1.
offset() { local o; o=$(grep -bio -m1 -- "$2" <<< "$1" | head -1 | cut -d: -f1); echo "${o:--1}"; }

# docs/experiments.md is generated (issue 18) and cites through papers.md.
for f in "$src"/README.md "$src"/docs/*.md "$src"/sim/data/README.md; do
  [ "$(basename "$f")" = experiments.md ] && continue
  text=$(tr '\n' ' ' < "$f" | tr -s ' ')
  for n in 0 1 2 3 4; do
    mention=$(offset "$text" "paper 00$n")
    [ "$mention" -ge 0 ] || continue
    for want in "${author[$n]}" "${title[$n]}"; do
      at=$(offset "$text" "$want")
      if [ "$at" -lt 0 ] || [ "$at" -gt $((mention + 300)) ]; then
        fail "${f#$src/}: paper 00$n first named without '$want' beside it"
      fi
    done
  done
done

conf=$(cat "$src/docs/configuration.md")
grep -q '^## Choosing a policy' <<< "$conf" ||
  fail "docs/configuration.md has no 'Choosing a policy' section"
section=$(sed -n '/^## Choosing a policy/,/^## /p' "$src/docs/configuration.md")
for p in mct met min-min ftmct ftmet grank wqr wqr-ft wqdr-ft ip ie iy iay; do
  grep -q "\`$p\`" <<< "$section" || fail "'Choosing a policy' does not name $p"
done
grep -q 'Choosing a policy' "$src/README.md" ||
  fail "README.md does not point at 'Choosing a policy'"

help=$("$sim" --help | tr '\n' ' ')
for n in 0 1 2 3 4; do
  grep -qF -- "${title[$n]}" <<< "$help" || fail "gsrt-sim --help lacks paper 00$n's title"
done
grep -qF -- "${title[4]}" <<< "$("$deploy" --help | tr '\n' ' ')" ||
  fail "gsdeploy --help names paper 004 without its title"
[ "$bad" = 0 ] || exit 1
echo "OK: papers cited by title, policy choice documented"
