# Sourced by chaos_soak.sh: the faults it injects into a running round.
# Each inject_KIND prints one line saying what it did and returns 0, or
# returns 1 when the fault had nothing to hit (no agent or worker running
# at that moment): the soak then counts it as skipped, not injected.
# Uses: $testbed (sshd.sh), $hosts_dir (its DIR), $root (everything of the
# soak), $rdir (the round's: node1..3 are the hosts' work dirs), $mpid /
# $merr (the master's pid and stderr file), wait_for.

# Waits (bounded by $1 seconds) until the master says host node$2 was lost,
# or the master ended.
wait_host_lost() {
  wait_for "$1" "grep -q 'host node$2 was lost' '$merr' || ! kill -0 $mpid 2>/dev/null"
}

# SIGKILL host I (its sshd, the sessions, the agent, its workers) as a
# machine losing power; it comes back (sshd restarted on its port) once the
# master has noticed, so the round also sees a host return.
inject_host_kill() {
  local i=$1
  bash "$testbed" crash "$hosts_dir" "$i"
  wait_host_lost 30 "$i" || true
  bash "$testbed" revive "$hosts_dir" "$i" >/dev/null
  echo "killed node$i (sshd and all under it), restarted its sshd"
}

# SIGSTOP host I and everything under it, as a machine that hangs; SIGCONT
# once the master gave it up (heartbeats missed) or after 20 s.
inject_host_stop() {
  local i=$1 stopped
  stopped=$(bash "$testbed" freeze "$hosts_dir" "$i")
  wait_host_lost 20 "$i" || true
  # shellcheck disable=SC2086
  kill -CONT $stopped 2>/dev/null || true
  echo "stopped node$i ($(echo $stopped | wc -w) processes), resumed it"
}

# SIGKILL host I's agent (the sshd session stays).
inject_agent_kill() {
  local i=$1 pids
  pids=$(pgrep -u "$(id -u)" -f -- "$rdir/node$i/bin/gsrt-agent" || true)
  [ -n "$pids" ] || return 1
  # shellcheck disable=SC2086
  kill -KILL $pids 2>/dev/null || true
  echo "killed node$i's agent ($pids)"
}

# The run's workers: processes below the master and its agents (the
# master starts them through a helper process) that run a NAME-worker.
run_workers() {
  local roots=" $mpid $(pgrep -u "$(id -u)" -f -- "$rdir/node[0-9]/bin/gsrt-agent" | tr '\n' ' ')"
  local pid ppid cmd
  local -A below=()
  # (By start time: a parent comes before its children.)
  while read -r pid ppid cmd; do
    [[ $roots == *" $ppid "* || -n ${below[$ppid]:-} ]] && below[$pid]=$cmd
  done < <(ps -e -o pid=,ppid=,args= --sort=start_time)
  for pid in "${!below[@]}"; do
    [[ ${below[$pid]} == *-worker\ * ]] && echo "$pid"
  done
}

# SIGKILL one worker of the run, on the master or on any host: number $1
# (modulo their count) of those running now.
inject_worker_kill() {
  local pick=$1 workers=()
  # Workers come and go (a host reconnecting, jobs between two stages):
  # up to 3 s for one to be there.
  wait_for 3 '[ -n "$(run_workers)" ]' || true
  mapfile -t workers < <(run_workers | sort -n)
  ((${#workers[@]})) || return 1
  local w=${workers[$((pick % ${#workers[@]}))]} where
  where=$(ps -o args= -p "$w" 2>/dev/null | grep -o "$rdir/node[0-9]" | head -1)
  where=${where##*/}
  kill -KILL "$w" 2>/dev/null || return 1
  echo "killed worker $w on ${where:-master}"
}

# Cancel one of the round's batch jobs that run now (with --slurm): number
# $1 (modulo their count). In job mode the job leaves the queue without an
# exit record (the master runs its task again); in pilot mode the pilot's
# agent dies with its allocation (its jobs run again elsewhere).
inject_batch_kill() {
  local pick=$1 jobs=()
  mapfile -t jobs < <(squeue -h -r -t RUNNING -o '%i %j' 2>/dev/null |
    awk '$2 ~ /^gsrt-(pilot-)?cluster-/ { print $1 }' | sort)
  ((${#jobs[@]})) || { echo "no batch job running"; return 1; }
  local j=${jobs[$((pick % ${#jobs[@]}))]}
  scancel "$j" 2>/dev/null || return 1
  echo "cancelled batch job $j of cluster"
}
