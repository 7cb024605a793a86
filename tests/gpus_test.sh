#!/usr/bin/env bash
# GPUs as a resource (issue 29), whole runs of tests/gpus on a local host
# that declares three stand-in devices (this machine has no GPU; the
# assignment path is the real one):
#   gpus_test.sh SRC GPUS MODE [SLURM_DIR]
# MODE:
#   persistent, process, fork   runtime.workers: every GPU job saw its own
#              devices in CUDA_VISIBLE_DEVICES and GSRT_GPUS (as many as it
#              asked for, from the declared ones); no device was ever held
#              by two jobs at once; GPU jobs ran side by side on different
#              devices; CPU-only jobs ran beside them and saw no device.
#   ssh        the same with a second host, a real sshd on 127.0.0.2 that
#              declares two devices of its own and gets the 2-GPU jobs
#              (runtime.hosts): they get its devices through its agent
#              (protocol 2.5), and per host no device is held twice.
#   ssh-detect the same, but the ssh host declares no `gpus`: its machine
#              shows two (CUDA_VISIBLE_DEVICES=0,1 in its `env`), its agent
#              finds them (--detect-gpus), tells the master (protocol 2.6)
#              and names each job's; its CPU-only jobs see none.
#   slurm-job  a Slurm host in job mode (the local bed, SLURM_DIR, whose
#              node has two stand-in GPUs as GRES) declaring `gpus: 2`: each
#              batch job asks the queue for its devices (--gres=gpu:k) and
#              the job sees the ones Slurm gave it, never two jobs one.
#   slurm-pilot the same bed in pilot mode: one pilot asks the queue for
#              both GPUs (batch_options: --gres=gpu:2), its agent tells the
#              master it has two (protocol 2.6) and names each job's.
#   refused    a call asking for more GPUs than any host has stops the
#              program at the call, naming the operation, its need and
#              what the host has.
set -euo pipefail
source "$(dirname "$0")/lib/host_jobs.sh"
src=$1 gpus=$2 mode=$3 testbed=${4:-}
work=$(mktemp -d)
pid=
cleanup() {
  [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null || true
  case $mode in slurm-*) cancel_host_jobs "$host" ;; esac
  if [ "${mode%-detect}" = ssh ]; then
    bash "$src/tests/testbed/sshd.sh" stop "$work/sshd" > /dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; tail -20 "$work/err" 2>/dev/null || true; exit 1; }

host="gpus-$mode-$$"
workers=$mode
case $mode in refused|ssh*) workers=persistent ;; esac
printf 'runtime:\n  workers: %s\nhosts:\n  - name: %s\n    adapter: local\n    slots: 4\n    gpus: [0, 1, 2]\n' \
  "$workers" "$host" > "$work/gsrt.yaml"
case $mode in slurm-*)
  bash "$src/tests/testbed/slurm.sh" start "$testbed" > /dev/null
  # shellcheck source=/dev/null
  source "$testbed/slurm.env" ;;
esac
if [ "$mode" = slurm-job ]; then
  printf 'hosts:\n  - name: %s\n    adapter: slurm\n    mode: job\n    shared_fs: true\n    slots: 2\n    gpus: 2\n' \
    "$host" > "$work/gsrt.yaml"
elif [ "$mode" = slurm-pilot ]; then
  printf 'hosts:\n  - name: %s\n    adapter: slurm\n    mode: pilot\n    pilots: 1\n    cpus_per_task: 2\n    batch_options: [--gres=gpu:2]\n' \
    "$host" > "$work/gsrt.yaml"
fi
if [ "${mode%-detect}" = ssh ]; then
  GSRT_SSHD_PORT=auto bash "$src/tests/testbed/sshd.sh" start 1 "$work/sshd" > /dev/null
  declared='    gpus: [0, 1]'
  [ "$mode" = ssh-detect ] && declared='    env: {CUDA_VISIBLE_DEVICES: "0,1"}'
  grep -v -e '^#' -e '^hosts:' "$work/sshd/gsrt.yaml" |
    sed "/name: node1/a\\$declared" >> "$work/gsrt.yaml"
  # The 2-GPU jobs all go to the ssh host (runtime.hosts), so its agent
  # surely passes devices on.
  sed -i 's/^runtime:$/runtime:\n  hosts: {pair: [node1]}/' "$work/gsrt.yaml"
fi
mkdir "$work/run"
cd "$work/run"
tasks=16 work_ms=300
[ "${mode%-detect}" = ssh ] && tasks=24
case $mode in slurm-*) tasks=10 work_ms=1500 ;; esac
args=("$tasks" "$work_ms")
[ "$mode" = refused ] && args+=(huge)
# The devices must come from gsrt, not from the caller's environment.
env -u CUDA_VISIBLE_DEVICES -u GSRT_GPUS GSRT_CONFIG="$work/gsrt.yaml" \
  "$gpus" "${args[@]}" > "$work/out" 2> "$work/err" &
pid=$!
timeout 500 tail --pid="$pid" -f /dev/null || fail "the run did not finish"
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
# Each line with its host in front: the ssh host's jobs ran under its
# workdir (sshd/host1), the others locally.
cat log*.txt | awk '{ print (($7 ~ /\/sshd\/host1\//) ? "node1" : "local"), $0 }' > "$work/lines"
[ "$(wc -l < "$work/lines")" = "$tasks" ] || fail "expected $tasks logs, got $(wc -l < "$work/lines")"
# Fields now: host kind index start end cuda gsrt cwd.
awk '$2 != "cpu" && $6 != $7 { exit 1 }' "$work/lines" || fail "CUDA_VISIBLE_DEVICES and GSRT_GPUS differ: $(cat "$work/lines")"
awk '$2 == "cpu" && ($6 != "-" || $7 != "-") { exit 1 }' "$work/lines" || fail "a CPU-only job was given devices"
awk '{ n = ($6 == "-") ? 0 : split($6, d, ",")
       want = ($2 == "pair") ? 2 : ($2 == "one") ? 1 : 0
       if (n != want) exit 1
       ok = ($1 == "node1" || slurm) ? "^[01]$" : "^[012]$"
       for (i = 1; i <= n; ++i) if (d[i] !~ ok) exit 1 }' \
    slurm=$(case $mode in slurm-*) echo 1 ;; *) echo 0 ;; esac) "$work/lines" ||
  fail "a job got the wrong number of devices or one its host does not declare: $(cat "$work/lines")"
# Per host and device, its jobs' intervals never overlap: +1 at each
# start, -1 at each end (ends first at equal times); and the devices busy
# at once overall.
read -r worst most < <(awk '$6 != "-" {
    n = split($6, d, ",")
    for (i = 1; i <= n; ++i) {
      printf "%s 1 %s:%s\n", $4, $1, d[i]
      printf "%s 0 %s:%s\n", $5, $1, d[i]
    }
  }' "$work/lines" | sort -k1,1n -k2,2n |
  awk '{ if ($2 == 1) { held[$3]++; busy++ } else { held[$3]--; busy-- }
         if (held[$3] > worst) worst = held[$3]
         if (busy > most) most = busy } END { print worst + 0, most + 0 }')
devices=3
[ "${mode%-detect}" = ssh ] && devices=5
case $mode in slurm-*) devices=2 ;; esac
[ "$worst" -le 1 ] || fail "a device was held by $worst jobs at once"
[ "$most" -ge 2 ] || fail "GPU jobs never ran side by side on different devices"
[ "$most" -le "$devices" ] || fail "$most devices busy at once with $devices declared"
if [ "${mode%-detect}" = ssh ]; then
  awk '$2 == "pair" && $1 != "node1" { exit 1 }' "$work/lines" ||
    fail "a 2-GPU job ran off the ssh host it is kept to"
  awk '$1 == "node1" && $6 != "-" { found = 1 } END { exit !found }' "$work/lines" ||
    fail "no GPU job ran on the ssh host"
fi
# CPU-only jobs ran while a GPU job held a device: the cores were filled.
awk '$2 != "cpu" { s[n] = $4; e[n] = $5; n++ }
     $2 == "cpu" { c[m] = $4; d[m] = $5; m++ }
     END { for (i = 0; i < m; ++i) for (j = 0; j < n; ++j)
             if (c[i] < e[j] && s[j] < d[i]) exit 0
           exit 1 }' "$work/lines" || fail "no CPU-only job ran beside a GPU job"
echo "OK: gpus $mode (each device held by one job at a time, $most at once)"
