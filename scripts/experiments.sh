#!/usr/bin/env bash
# Regenerates the tables of docs/experiments.md that gsrt-sim computes in
# seconds, so their numbers cannot drift from what the code does. Each sits
# between the lines <!-- table:NAME:begin --> and <!-- table:NAME:end -->:
#   braun     Braun instances through the engine: MET, MCT, Min-Min ("Paper 003")
#   batch     Min-Min, Sufferage and both + local search on the four Braun
#             instances and one generated instance of each other class
#             (gsrt-sim etc-generate, seed 1), against the best known and
#             the LP lower bound (gsrt-sim etc-bound) ("Paper 003")
#   volatile  paper 002's sixteen policies, 10 seeds, with transfers ("Paper 002")
#
#   experiments.sh GSRT_SIM BRAUN_DIR                    print every table
#   experiments.sh GSRT_SIM BRAUN_DIR --write FILE [NAME...]  replace them in FILE
#   experiments.sh GSRT_SIM BRAUN_DIR --check FILE [NAME...]  fail if FILE's differ
set -euo pipefail
sim=$1 braun=$2 mode=${3:-} file=${4:-}
shift $(($# < 4 ? $# : 4))
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(braun batch volatile)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
instances=(u_c_hihi.0 u_c_hilo.0 u_c_lohi.0 u_c_lolo.0)

makespan() {  # FILE POLICY
  local v
  v=$("$sim" etc "$1" --policy "$2" --json | sed -n 's/.*"makespan":\([0-9.e+]*\).*/\1/p')
  [ -n "$v" ] || { echo "experiments.sh: no makespan for $2 on $1" >&2; exit 1; }
  echo "$v"
}

# 1234567.891 -> 1,234,567.89
commas() {
  awk -v x="$1" 'BEGIN { s = sprintf("%.2f", x); i = index(s, "."); n = substr(s, 1, i - 1)
    out = ""
    while (length(n) > 3) { out = "," substr(n, length(n) - 2) out; n = substr(n, 1, length(n) - 3) }
    print n out substr(s, i) }'
}

table_braun() {
  echo "| instance | MET | MCT | Min-Min |"
  echo "|---|---|---|---|"
  local i p row
  for i in "${instances[@]}"; do
    row="| $i |"
    for p in met mct min-min; do row+=" $(commas "$(makespan "$braun/$i" "$p")") |"; done
    echo "$row"
  done
}

table_batch() {
  # Best known makespans (Gogos et al., FGCS 2016) of the Braun instances.
  local -A known=([u_c_hihi.0]=7358942.75 [u_c_hilo.0]=152812.21
                  [u_c_lohi.0]=238649.00 [u_c_lolo.0]=5135.70)
  echo "| instance | min-min | sufferage | min-min-ls | sufferage-ls | best / min-min | best known | best / best known | LP bound | best / LP bound |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  local inputs=() i c f p values bound
  for i in "${instances[@]}"; do inputs+=("$braun/$i"); done
  for c in u_s_hihi u_s_hilo u_s_lohi u_s_lolo u_i_hihi u_i_hilo u_i_lohi u_i_lolo; do
    "$sim" etc-generate "$c" --seed 1 > "$work/$c"
    inputs+=("$work/$c")
  done
  for f in "${inputs[@]}"; do
    values=()
    for p in min-min sufferage min-min-ls sufferage-ls; do values+=("$(makespan "$f" "$p")"); done
    bound=$("$sim" etc-bound "$f")
    awk -v name="$(basename "$f")" -v known="${known[$(basename "$f")]:-}" -v lb="$bound" \
        -v a="${values[0]}" -v b="${values[1]}" -v c="${values[2]}" -v d="${values[3]}" 'BEGIN {
      best = a; if (b < best) best = b; if (c < best) best = c; if (d < best) best = d
      k = known == "" ? "-" : sprintf("%.2f", known)
      r = known == "" ? "-" : sprintf("%.3f", best / known)
      printf "| %s | %.2f | %.2f | %.2f | %.2f | %.3f | %s | %s | %.2f | %.3f |\n",
             name, a, b, c, d, best / a, k, r, lb, best / lb }'
  done
}

table_volatile() {
  local args=() h c
  for h in ip ie iy iay; do args+=(-p "$h"); done
  for c in p e y; do for h in ip ie iy iay; do args+=(-p "$c-$h"); done; done
  "$sim" volatile --reps 10 "${args[@]}" > "$work/volatile"
  echo "| H \\ C | passive | P-H | E-H | Y-H |"
  echo "|---|---|---|---|---|"
  awk 'NR > 1 { it[$1] = $2 }
    END { split("ip ie iy iay", hs, " ")
      for (k = 1; k <= 4; ++k) { h = hs[k]
        printf "| %s | %.1f | %.1f | %.1f | %.1f |\n", toupper(h), it[h], it["p-" h], it["e-" h], it["y-" h] } }' \
    "$work/volatile"
}

replace() {  # FILE NAME TABLE_FILE -> FILE with the table in place
  local begin="<!-- table:$2:begin -->" end="<!-- table:$2:end -->"
  grep -qF -- "$begin" "$1" && grep -qF -- "$end" "$1" ||
    { echo "experiments.sh: $1 has no $begin ... $end lines" >&2; exit 2; }
  awk -v t="$3" -v b="$begin" -v e="$end" '
    $0 == e { skip = 0 }
    !skip { print }
    $0 == b { while ((getline line < t) > 0) print line; skip = 1 }' "$1"
}

case $mode in
  "") for n in "${names[@]}"; do echo "## $n"; "table_$n"; done ;;
  --write|--check)
    [ -f "$file" ] || { echo "experiments.sh: no file $file" >&2; exit 2; }
    cp "$file" "$work/doc"
    for n in "${names[@]}"; do
      "table_$n" > "$work/$n.table"
      replace "$work/doc" "$n" "$work/$n.table" > "$work/doc.new"
      mv "$work/doc.new" "$work/doc"
    done
    if [ "$mode" = --write ]; then
      cp "$work/doc" "$file"
    elif ! diff -u "$file" "$work/doc"; then
      echo "FAIL: tables of $file differ from a fresh run; regenerate them with"
      echo "  scripts/experiments.sh build/tools/gsrt-sim BRAUN_DIR --write $file"
      exit 1
    else
      echo "OK: the tables ${names[*]} of $file match a fresh run"
    fi ;;
  *) echo "usage: experiments.sh GSRT_SIM BRAUN_DIR [--write|--check FILE [NAME...]]" >&2; exit 2 ;;
esac
