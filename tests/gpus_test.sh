#!/usr/bin/env bash
# GPUs as a resource (issue 29), whole runs of tests/gpus on a local host
# that declares three stand-in devices (this machine has no GPU; the
# assignment path is the real one):
#   gpus_test.sh SRC GPUS MODE
# MODE:
#   persistent, process, fork   runtime.workers: every GPU job saw its own
#              devices in CUDA_VISIBLE_DEVICES and GSRT_GPUS (as many as it
#              asked for, from the declared ones); no device was ever held
#              by two jobs at once; GPU jobs ran side by side on different
#              devices; CPU-only jobs ran beside them and saw no device.
#   refused    a call asking for more GPUs than any host has stops the
#              program at the call, naming the operation, its need and
#              what the host has.
set -euo pipefail
src=$1 gpus=$2 mode=$3
work=$(mktemp -d)
pid=
cleanup() {
  [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; tail -20 "$work/err" 2>/dev/null || true; exit 1; }

host="gpus-$mode-$$"
workers=$mode
[ "$mode" = refused ] && workers=persistent
printf 'runtime:\n  workers: %s\nhosts:\n  - name: %s\n    adapter: local\n    slots: 4\n    gpus: [0, 1, 2]\n' \
  "$workers" "$host" > "$work/gsrt.yaml"
mkdir "$work/run"
cd "$work/run"
tasks=16 work_ms=300
args=("$tasks" "$work_ms")
[ "$mode" = refused ] && args+=(huge)
# The devices must come from gsrt, not from the caller's environment.
env -u CUDA_VISIBLE_DEVICES -u GSRT_GPUS GSRT_CONFIG="$work/gsrt.yaml" \
  "$gpus" "${args[@]}" > "$work/out" 2> "$work/err" &
pid=$!
timeout 300 tail --pid="$pid" -f /dev/null || fail "the run did not finish"
status=0
wait "$pid" || status=$?
pid=

if [ "$mode" = refused ]; then
  [ "$status" != 0 ] || fail "a call no host can run did not stop the program"
  want="operation 'huge' needs 1 core and 8 GPUs (its @Constraints in the IDL) but no host has that much: $host has 4 cores"
  grep -qF "$want" "$work/err" || fail "message does not name the operation, its need and the host: $(cat "$work/err")"
  grep -qE "$host has 4 cores, [0-9.]+ GB of memory and 3 GPUs" "$work/err" || fail "the host's GPUs are not in the message: $(cat "$work/err")"
  [ ! -e log0.txt ] || fail "calls after the refused one ran"
  echo "OK: gpus refused"
  exit 0
fi

[ "$status" = 0 ] || fail "master exited $status"
cat log*.txt > "$work/lines"
[ "$(wc -l < "$work/lines")" = "$tasks" ] || fail "expected $tasks logs, got $(wc -l < "$work/lines")"
# What each job was given.
awk '$1 != "cpu" && $5 != $6 { exit 1 }' "$work/lines" || fail "CUDA_VISIBLE_DEVICES and GSRT_GPUS differ: $(cat "$work/lines")"
awk '$1 == "cpu" && ($5 != "-" || $6 != "-") { exit 1 }' "$work/lines" || fail "a CPU-only job was given devices"
awk '{ n = ($5 == "-") ? 0 : split($5, d, ",")
       want = ($1 == "pair") ? 2 : ($1 == "one") ? 1 : 0
       if (n != want) exit 1
       for (i = 1; i <= n; ++i) if (d[i] !~ /^[012]$/) exit 1 }' "$work/lines" ||
  fail "a job got the wrong number of devices or one not declared: $(cat "$work/lines")"
# Per device, its jobs' intervals never overlap: +1 at each start, -1 at
# each end (ends first at equal times), per device; and the devices busy
# at once overall.
read -r worst most < <(awk '$5 != "-" {
    n = split($5, d, ",")
    for (i = 1; i <= n; ++i) {
      printf "%s 1 %s\n", $3, d[i]
      printf "%s 0 %s\n", $4, d[i]
    }
  }' "$work/lines" | sort -k1,1n -k2,2n |
  awk '{ if ($2 == 1) { held[$3]++; busy++ } else { held[$3]--; busy-- }
         if (held[$3] > worst) worst = held[$3]
         if (busy > most) most = busy } END { print worst + 0, most + 0 }')
[ "$worst" -le 1 ] || fail "a device was held by $worst jobs at once"
[ "$most" -ge 2 ] || fail "GPU jobs never ran side by side on different devices"
[ "$most" -le 3 ] || fail "$most devices busy at once with 3 declared"
# CPU-only jobs ran while a GPU job held a device: the cores were filled.
awk '$1 != "cpu" { s[n] = $3; e[n] = $4; n++ }
     $1 == "cpu" { c[m] = $3; d[m] = $4; m++ }
     END { for (i = 0; i < m; ++i) for (j = 0; j < n; ++j)
             if (c[i] < e[j] && s[j] < d[i]) exit 0
           exit 1 }' "$work/lines" || fail "no CPU-only job ran beside a GPU job"
echo "OK: gpus $mode (each device held by one job at a time, $most at once)"
