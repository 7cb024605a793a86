#!/usr/bin/env bash
# Chaos soak (issue 17): rounds of a real application (matmul, or the
# scratch DAG that reuses one file name) on the master's cores plus three
# real sshd hosts, while faults hit at moments drawn from a seed: a host
# SIGKILLed (its sshd and everything under it, then restarted), a host
# SIGSTOPped and resumed, an agent or a single worker SIGKILLed, the master
# SIGKILLed and started again in the same directory (it resumes).
# With --slurm, a fourth host is the local Slurm (job mode or pilots, drawn
# per round) and a batch job or pilot is cancelled as a fault too.
# After every round: the files are byte for byte the sequential build's,
# and no process, host session, batch job or stray file of the run is left.
#
#   chaos_soak.sh BIN_DIR [--rounds N] [--from F] [--seed S] [--round R] [--small] [--keep]
#                 [--slurm TESTBED_DIR]
#
# BIN_DIR holds matmul, matmul-sequential, scratch and scratch-sequential
# (the build's examples/). Rounds F..N run (default 1..50); round R's plan
# comes from its own seed, f(S, R), printed with it, so `--seed S --round R`
# replays that round's plan (the faults' kinds, targets and moments; the
# moments are "once the run reports K tasks done", so the exact instant still
# depends on timing). Every wait is bounded: a round that does not end in
# $GSRT_CHAOS_ROUND_TIMEOUT seconds (default 180) fails with its seed.
# Exits 1 if any round failed; prints a summary with each failed round's
# replay command. --small runs smaller applications (the CTest form).
# --slurm starts (or reuses) the local Slurm of tests/testbed/slurm.sh in
# TESTBED_DIR.
# --keep keeps the soak's directory (kept anyway when a
# round failed).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
testbed="$here/../testbed/sshd.sh"
# shellcheck source=faults.sh
source "$here/faults.sh"
# shellcheck source=leftovers.sh
source "$here/leftovers.sh"

usage() { echo "usage: chaos_soak.sh BIN_DIR [--rounds N] [--from F] [--seed S] [--round R] [--small] [--keep] [--slurm TESTBED_DIR]" >&2; exit 2; }
(($# >= 1)) || usage
bin=$(cd "$1" && pwd) || usage
shift
rounds=50 seed=1 only='' from=1 keep=0 small=0 slurm_dir=''

while (($#)); do
  case $1 in
    --rounds) rounds=${2:?}; shift 2 ;;
    --seed) seed=${2:?}; shift 2 ;;
    --round) only=${2:?}; shift 2 ;;
    --from) from=${2:?}; shift 2 ;;
    --keep) keep=1; shift ;;
    --small) small=1; shift ;;
    --slurm) slurm_dir=${2:?}; shift 2 ;;
    *) usage ;;
  esac
done
for v in "$rounds" "$seed" "$from" ${only:+"$only"}; do
  [[ $v =~ ^[0-9]+$ ]] || { echo "chaos_soak.sh: '$v' is not a number" >&2; exit 2; }
done
for p in matmul matmul-sequential scratch scratch-sequential; do
  [ -x "$bin/$p" ] || { echo "chaos_soak.sh: $bin/$p is missing: build the examples first" >&2; exit 2; }
done
round_timeout=${GSRT_CHAOS_ROUND_TIMEOUT:-180}
kinds=(host_kill host_stop agent_kill worker_kill master_kill)
if [ -n "$slurm_dir" ]; then
  kinds+=(batch_kill)
  bash "$here/../testbed/slurm.sh" start "$slurm_dir" >/dev/null
  # shellcheck disable=SC1091
  source "$slurm_dir/slurm.env"
fi

root=$(mktemp -d "${TMPDIR:-/tmp}/gsrt-chaos.XXXXXX")
hosts_dir=$root/sshd
mkdir "$root/tmp" "$root/seq" "$root/rounds"
mpid='' master_pids=''
failures=()
finish() {
  [ -n "$mpid" ] && kill -KILL "$mpid" 2>/dev/null || true
  local i
  for i in 1 2 3; do  # a host left stopped by an interrupted fault
    # shellcheck disable=SC2046
    kill -CONT $(bash "$testbed" below "$hosts_dir" "$i") 2>/dev/null || true
  done
  bash "$testbed" stop "$hosts_dir" >/dev/null 2>&1 || true
  if ((${#failures[@]} || keep)); then
    echo "chaos soak: kept $root"
  else
    rm -rf "$root"
  fi
}
trap finish EXIT

# wait_for SECONDS CONDITION: polls the shell condition until it holds (0)
# or the seconds have passed (1).
wait_for() {
  local deadline=$((SECONDS + $1))
  until eval "$2"; do
    ((SECONDS < deadline)) || return 1
    sleep 0.05
  done
}

GSRT_SSHD_PORT=auto bash "$testbed" start 3 "$hosts_dir" >/dev/null
{
  echo "runtime:"
  echo "  heartbeat: 1"
  echo "  progress: always  # the soak times its faults by it"
  # Budgets no fault schedule of a round can exhaust: each fault costs a
  # job at most one attempt of its kind.
  echo "  retries: {app: 6, infra: 20, timeout: 1, backoff: 0.1, backoff_max: 1}"
  echo "hosts:"
  echo "  - name: master"
  echo "    adapter: local"
  echo "    slots: 1"
  grep -v '^#' "$hosts_dir/gsrt.yaml" | grep -v '^hosts:'
} >"$root/gsrt.yaml"

declare -A injected=() skipped=()
for k in "${kinds[@]}"; do injected[$k]=0 skipped[$k]=0; done

# The round's plan, all drawn from its seed before anything runs: the
# application and its size, then 1-3 faults, each a kind, a host, a pick
# (which worker) and a moment (once how many tasks are done), in order.
plan_round() {  # plan_round R
  round_seed=$(((seed * 1000003 + $1 * 7919) % 2147483647))
  RANDOM=$round_seed
  if ((RANDOM % 2)); then
    app=matmul args="$((5 - 2 * small + RANDOM % 2)) $((32 + 32 * (RANDOM % 2)))"
    local n=${args%% *}
    total=$((3 * n * n + n * n * n + 1))
  else
    app=scratch args="$(((40 + 20 * (RANDOM % 3)) / (1 + 2 * small))) $((20000 + 20000 * (RANDOM % 2)))"
    total=$((3 * ${args%% *}))
  fi
  local count=$((1 + RANDOM % 3)) f at=()
  plan=()
  for ((f = 0; f < count; f++)); do at+=($((RANDOM % (total / 2)))); done
  mapfile -t at < <(printf '%s\n' "${at[@]}" | sort -n)
  for ((f = 0; f < count; f++)); do
    plan+=("${at[$f]} ${kinds[$((RANDOM % ${#kinds[@]}))]} $((1 + RANDOM % 3)) $RANDOM")
  done
  # (Not in a subshell: bash reseeds RANDOM there, and replays differ.)
  batch_mode=
  if [ -n "$slurm_dir" ]; then
    if ((RANDOM % 2)); then batch_mode=pilot; else batch_mode=job; fi
  fi
}

# The Slurm host of round directory $1 (work dir beside node1..3).
cluster_host() {
  echo "  - name: cluster"
  echo "    adapter: slurm"
  echo "    mode: $batch_mode"
  echo "    slots: 2"
  echo "    shared_fs: true"
  echo "    workdir: $1/cluster"
  [ "$batch_mode" = pilot ] && echo "    pilots: 1"
  return 0
}

# Tasks the running master reports done (its progress line, every 0.25 s
# while it waits; reused tasks count). Not read from the history: a reader
# holding it open while the master closes it would leave its WAL behind.
tasks_done() {
  local line
  line=$(grep -o '^gsrt: [0-9]* done' "$merr" | tail -n 1)
  line=${line#gsrt: }
  echo "${line%% *}"
}

start_master() {
  ((++starts))
  merr=$rdir/err.$starts mout=$rdir/out.$starts
  # shellcheck disable=SC2086
  (cd "$par" && TMPDIR="$root/tmp" GSRT_CONFIG="$rdir/gsrt.yaml" exec "$bin/$app" $args) \
    >"$mout" 2>"$merr" &
  mpid=$!
  master_pids+=" $mpid"
}

inject_master_kill() {
  kill -KILL "$mpid" 2>/dev/null || return 1
  wait "$mpid" 2>/dev/null || true
  start_master
  echo "killed the master, started it again (it resumes)"
}

# run_round R: plans, runs and checks round R; the reason it failed on
# stdout's last line and status 1, or status 0.
round_failure=
fail_round() { round_failure=$*; return 1; }
run_round() {
  local r=$1 f at kind host pick started=$SECONDS deadline
  disturbed=0  # a host lost or the master killed: see stray_files
  plan_round "$r"
  rdir=$root/rounds/$r par=$root/rounds/$r/par starts=0
  mkdir -p "$par"
  # The hosts work in directories of this round (node1..3 beside par/):
  # what a round leaves on them is seen apart from the other rounds.
  {
    sed "s|workdir: $hosts_dir/host\([0-9]\)/work|workdir: $rdir/node\1|" "$root/gsrt.yaml"
    [ -z "$slurm_dir" ] || cluster_host "$rdir"
  } >"$rdir/gsrt.yaml"
  local seqdir="$root/seq/$app-${args// /-}"
  if [ ! -d "$seqdir" ]; then
    mkdir "$seqdir"
    # shellcheck disable=SC2086
    (cd "$seqdir" && "$bin/$app-sequential" $args) >/dev/null
  fi
  printf 'round %d (seed %d): %s %s%s, faults:' "$r" "$round_seed" "$app" "$args" "${batch_mode:+, slurm $batch_mode mode}"
  printf ' [%s]' "${plan[@]}"
  echo
  deadline=$((SECONDS + round_timeout))
  start_master
  for f in "${plan[@]}"; do
    read -r at kind host pick <<<"$f"
    wait_for $((deadline - SECONDS)) "[ \"\$(tasks_done)\" -ge $at ] 2>/dev/null || ! kill -0 $mpid 2>/dev/null" ||
      fail_round "the run had not finished $at tasks in time" || break
    if ! kill -0 "$mpid" 2>/dev/null; then
      skipped[$kind]=$((skipped[$kind] + 1))
      echo "  after $at tasks: $kind: skipped, the run had ended"
      continue
    fi
    local arg=$host
    [ "$kind" = worker_kill ] && arg=$pick
    if "inject_$kind" "$arg" >"$rdir/fault.out" 2>&1; then
      injected[$kind]=$((injected[$kind] + 1))
      [ "$kind" = worker_kill ] || disturbed=1
      echo "  after $at tasks: $(cat "$rdir/fault.out")"
    else
      skipped[$kind]=$((skipped[$kind] + 1))
      echo "  after $at tasks: $kind: skipped, nothing to hit ($(cat "$rdir/fault.out"))"
    fi
  done
  [ -n "$round_failure" ] && return 1
  local status=0
  if ! wait_for $((deadline - SECONDS)) "! kill -0 $mpid 2>/dev/null"; then
    # What the hung master was doing, for the report (bounded).
    if command -v gdb >/dev/null; then
      timeout 60 gdb -p "$mpid" -batch -ex "thread apply all bt" >"$rdir/hung-stacks.txt" 2>&1 || true
    fi
    kill -KILL "$mpid" 2>/dev/null || true
    wait "$mpid" 2>/dev/null || true
    mpid=
    fail_round "the run did not end within ${round_timeout}s (hung; see $merr and $rdir/hung-stacks.txt)"
    return 1
  fi
  wait "$mpid" || status=$?
  mpid=
  ((status == 0)) || { fail_round "the master exited $status: $(tail -n 3 "$merr" | tr '\n' ' ')"; return 1; }
  diff -r --exclude=.gsrt "$par" "$seqdir" >"$rdir/diff" 2>&1 ||
    { fail_round "files differ from the sequential run: $(head -n 3 "$rdir/diff" | tr '\n' ' ')"; return 1; }
  grep -q "matches the sequential" "$mout" ||
    { fail_round "$app does not say its result matches: $(head -n 2 "$mout" | tr '\n' ' ')"; return 1; }
  # Agents end with their connection, workers with their parent: give them
  # a bounded moment, then everything must be gone.
  wait_for 20 '[ -z "$( (soak_processes; host_sessions; batch_jobs; stray_files "$rdir" "$disturbed"))" ]' || true
  local left
  left=$( (soak_processes; host_sessions; batch_jobs; stray_files "$rdir" "$disturbed") | head -n 8)
  [ -z "$left" ] || { fail_round "left behind: $(echo "$left" | tr '\n' ';')"; return 1; }
  echo "  ok: $((SECONDS - started)) s, $starts master run(s), $(grep -o '[0-9]* jobs (.*' "$merr"), files identical, nothing left"
}

# After a failed round: what it left must not disturb the next one.
clean_up_round() {
  local p
  [ -n "$mpid" ] && { kill -KILL "$mpid" 2>/dev/null || true; wait "$mpid" 2>/dev/null || true; }
  mpid=
  for p in $(soak_processes | sed -n 's/^process \([0-9]*\):.*/\1/p'); do kill -KILL "$p" 2>/dev/null || true; done
  [ -z "$slurm_dir" ] || batch_jobs | awk '{ print $3 }' | xargs -r scancel 2>/dev/null || true
  for i in 1 2 3; do
    # shellcheck disable=SC2046
    kill -CONT $(bash "$testbed" below "$hosts_dir" "$i") 2>/dev/null || true
    [ -f "$hosts_dir/host$i/sshd.pid" ] || bash "$testbed" revive "$hosts_dir" "$i" >/dev/null
  done
}

soak_start=$SECONDS
if [ -n "$only" ]; then list=("$only"); else mapfile -t list < <(seq "$from" "$rounds"); fi
for r in "${list[@]}"; do
  round_failure=
  if ! run_round "$r"; then
    echo "  FAILED: $round_failure"
    replay="scripts/chaos_soak.sh --seed $seed --round $r"
    ((small)) && replay+=" --small"
    [ -z "$slurm_dir" ] || replay+=" --slurm $slurm_dir"
    failures+=("round $r (seed $round_seed, $app $args): $round_failure
    replay: $replay")
    clean_up_round
  fi
done

echo "chaos soak: seed $seed, ${#list[@]} rounds, ${#failures[@]} failed, $((SECONDS - soak_start)) s"
line="faults injected:" total_faults=0
for k in "${kinds[@]}"; do
  line+=" $k ${injected[$k]},"
  total_faults=$((total_faults + injected[$k]))
done
echo "$line total $total_faults"
line="faults skipped (nothing to hit, or the run had ended):"
for k in "${kinds[@]}"; do line+=" $k ${skipped[$k]},"; done
echo "${line%,}"
for f in "${failures[@]}"; do echo "FAILED $f"; done
((${#failures[@]} == 0)) || exit 1
# Rounds whose faults all came too late prove nothing about faults.
((total_faults > 0)) || { echo "FAILED: no fault was injected in ${#list[@]} rounds"; exit 1; }
echo "OK: chaos soak: ${#list[@]} rounds, $total_faults faults, files identical, nothing left"
