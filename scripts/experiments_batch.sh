#!/usr/bin/env bash
# Regenerates the "schedules better than Min-Min" table of
# docs/experiments.md from gsrt-sim runs, so its numbers cannot drift:
# the four consistent Braun instances and one generated instance of each
# other class (gsrt-sim etc-generate, seed 1), each mapped through the
# engine by min-min, sufferage, min-min-ls and sufferage-ls.
#
#   experiments_batch.sh GSRT_SIM BRAUN_DIR            print the table
#   experiments_batch.sh GSRT_SIM BRAUN_DIR --write F  replace it in F
#   experiments_batch.sh GSRT_SIM BRAUN_DIR --check F  fail if F's differs
# The table sits between the lines <!-- batch-table:begin --> and
# <!-- batch-table:end -->.
set -euo pipefail
sim=$1 braun=$2 mode=${3:-} file=${4:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Best known makespans (Gogos et al., FGCS 2016) of the Braun instances.
declare -A known=([u_c_hihi.0]=7358942.75 [u_c_hilo.0]=152812.21
                  [u_c_lohi.0]=238649.00 [u_c_lolo.0]=5135.70)
policies=(min-min sufferage min-min-ls sufferage-ls)

makespan() {  # FILE POLICY
  "$sim" etc "$1" --policy "$2" --json |
    sed -n 's/.*"makespan":\([0-9.e+]*\).*/\1/p'
}

table() {
  echo "| instance | min-min | sufferage | min-min-ls | sufferage-ls | best / min-min | best known | best / best known |"
  echo "|---|---|---|---|---|---|---|---|"
  local inputs=()
  for i in u_c_hihi.0 u_c_hilo.0 u_c_lohi.0 u_c_lolo.0; do inputs+=("$braun/$i"); done
  for c in u_s_hihi u_s_hilo u_s_lohi u_s_lolo u_i_hihi u_i_hilo u_i_lohi u_i_lolo; do
    "$sim" etc-generate "$c" --seed 1 > "$work/$c"
    inputs+=("$work/$c")
  done
  for f in "${inputs[@]}"; do
    local name values=() v
    name=$(basename "$f")
    for p in "${policies[@]}"; do
      v=$(makespan "$f" "$p")
      [ -n "$v" ] || { echo "experiments_batch.sh: no makespan for $p on $name" >&2; exit 1; }
      values+=("$v")
    done
    awk -v name="$name" -v known="${known[$name]:-}" -v a="${values[0]}" \
        -v b="${values[1]}" -v c="${values[2]}" -v d="${values[3]}" 'BEGIN {
      best = a; if (b < best) best = b; if (c < best) best = c; if (d < best) best = d
      k = known == "" ? "-" : sprintf("%.2f", known)
      r = known == "" ? "-" : sprintf("%.3f", best / known)
      printf "| %s | %.2f | %.2f | %.2f | %.2f | %.3f | %s | %s |\n",
             name, a, b, c, d, best / a, k, r }'
  done
}

case $mode in
  "") table ;;
  --write|--check)
    [ -f "$file" ] || { echo "experiments_batch.sh: no file $file" >&2; exit 2; }
    table > "$work/table"
    awk -v t="$work/table" '
      /<!-- batch-table:end -->/ { skip = 0 }
      !skip { print }
      /<!-- batch-table:begin -->/ { while ((getline line < t) > 0) print line; skip = 1 }
    ' "$file" > "$work/new"
    grep -q '<!-- batch-table:begin -->' "$file" ||
      { echo "experiments_batch.sh: $file has no <!-- batch-table:begin --> line" >&2; exit 2; }
    if [ "$mode" = --write ]; then
      cp "$work/new" "$file"
    elif ! diff -u "$file" "$work/new"; then
      echo "FAIL: $file's batch table differs from a fresh run; regenerate it with"
      echo "  scripts/experiments_batch.sh build/tools/gsrt-sim BRAUN_DIR --write $file"
      exit 1
    else
      echo "OK: the batch table of $file matches a fresh run"
    fi ;;
  *) echo "usage: experiments_batch.sh GSRT_SIM BRAUN_DIR [--write|--check FILE]" >&2; exit 2 ;;
esac
