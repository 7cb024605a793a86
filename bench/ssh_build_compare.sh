#!/usr/bin/env bash
# Two builds of gsrt (before and after a change) on the same ssh host and
# locally, rounds alternating, so that the machine's load falls on both
# alike: no-op tasks with persistent workers through one real sshd on
# 127.0.0.2 (a port free at run time; each build installs its agent and
# worker in its own work dir, once, before the rounds) and through the
# local adapter. Per round and side: the whole run (GS_On to GS_Off) and
# the tasks alone (first call to the end of GS_Barrier) in jobs/s, GS_On
# and GS_Off in ms; then per build the best and the median of each and the
# ssh/local ratios.
#
#   bench/ssh_build_compare.sh BASE_BUILD NEW_BUILD [TASKS (default 2000)] [ROUNDS (default 5)]
set -euo pipefail
base=$(cd "$1" && pwd)
new=$(cd "$2" && pwd)
tasks=${3:-2000}
rounds=${4:-5}
src=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
stop() { bash "$src/tests/testbed/sshd.sh" stop "$work/sshd" >/dev/null 2>&1 || true; rm -rf "$work"; }
trap stop EXIT
GSRT_SSHD_PORT=auto bash "$src/tests/testbed/sshd.sh" start 1 "$work/sshd" >/dev/null
for b in base new; do
  { printf 'runtime:\n  workers: persistent\n'
    sed "s|/host1/work\$|/host1/work-$b|" "$work/sshd/gsrt.yaml"; } > "$work/ssh-$b.yaml"
  printf 'runtime:\n  workers: persistent\nhosts:\n  - name: local\n    adapter: local\n    slots: 2\n' > "$work/local-$b.yaml"
done
bench_of() { if [[ $1 == *-base ]]; then echo "$base/bench/local_dispatch_bench"; else echo "$new/bench/local_dispatch_bench"; fi; }
# "N M A B": whole run and tasks alone (jobs/s), GS_On and GS_Off (ms).
run() {
  (cd "$work" && GSRT_CONFIG="$work/$1.yaml" "$(bench_of "$1")" "$tasks" 1 2>/dev/null) |
    sed -n 's/^round 1: \([0-9]*\) jobs\/s; the tasks alone \([0-9]*\) jobs\/s (GS_On \([0-9]*\) ms, GS_Off \([0-9]*\) ms).*/\1 \2 \3 \4/p'
}
for b in base new; do (cd "$work" && GSRT_CONFIG="$work/ssh-$b.yaml" "$(bench_of "ssh-$b")" 10 1 >/dev/null 2>&1); done

sides="ssh-base ssh-new local-base local-new"
echo "ssh_build_compare: $tasks no-op tasks, persistent workers, 2 slots, $rounds rounds; load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "  base $base, new $new"
: > "$work/results"
for ((r = 1; r <= rounds; r++)); do
  line="  round $r (whole/alone jobs/s, GS_On+GS_Off ms):"
  for side in $sides; do
    read -r whole alone on off < <(run "$side")
    echo "$side $whole $alone $on $off" >> "$work/results"
    line="$line $side $whole/$alone ($on+$off)"
  done
  echo "$line"
done
awk '
  { n[$1]++; w[$1, n[$1]] = $2; a[$1, n[$1]] = $3; o[$1, n[$1]] = $4; f[$1, n[$1]] = $5 }
  function best(arr, s,   i, m) { m = 0; for (i = 1; i <= n[s]; i++) if (arr[s, i] > m) m = arr[s, i]; return m }
  function median(arr, s,   i, j, t, v, k) {
    k = n[s]; for (i = 1; i <= k; i++) v[i] = arr[s, i]
    for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
    return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
  }
  END {
    split("base new", builds, " ")
    for (b = 1; b <= 2; b++) {
      s = "ssh-" builds[b]; l = "local-" builds[b]
      printf "  %s: ssh whole %d (median %d) / local %d (median %d) -> %.2f (medians %.2f); tasks alone %d / %d -> %.2f (medians %.2f); GS_On median ssh %d ms, local %d ms; GS_Off median ssh %d ms, local %d ms\n",
        builds[b], best(w, s), median(w, s), best(w, l), median(w, l), best(w, s) / best(w, l), median(w, s) / median(w, l),
        best(a, s), best(a, l), best(a, s) / best(a, l), median(a, s) / median(a, l),
        median(o, s), median(o, l), median(f, s), median(f, l)
    }
  }' "$work/results"
echo "  load after: $(cut -d' ' -f1-3 /proc/loadavg)"
