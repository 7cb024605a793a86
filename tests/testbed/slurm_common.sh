# What the Slurm test beds share (slurm.sh: one node; slurm_nodes.sh:
# several, in network namespaces): installing Slurm, pid files, daemons
# started without the caller's descriptors, munge. Sourced, not run.

die() { echo "${0##*/}: $*" >&2; exit 1; }

install_if_missing() {
  local missing=0 cmd
  for cmd in slurmctld slurmd sbatch scontrol sinfo munged munge unmunge qsub; do
    command -v "$cmd" >/dev/null || missing=1
  done
  ((missing)) || return 0
  echo "slurm.sh: installing slurm-wlm munge slurm-wlm-torque" >&2
  apt-get update -qq
  # Keep the packages from starting the system's own munge/slurm services.
  local policy=/usr/sbin/policy-rc.d added=0
  if [[ ! -e $policy ]]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy"; chmod 755 "$policy"; added=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    slurm-wlm munge slurm-wlm-torque >/dev/null
  ((added)) && rm -f "$policy"
  command -v slurmctld >/dev/null || die "installing slurm-wlm did not provide slurmctld"
}

alive() { [[ -f $1 ]] && kill -0 "$(cat "$1")" 2>/dev/null; }

# Stops the processes in the given pid files together (TERM, then KILL
# after 10 s) and waits until they are gone. Each daemon takes ~2 s.
stop_pidfiles() {
  local pidfile pid pids=() deadline
  for pidfile in "$@"; do
    [[ -f $pidfile ]] || continue
    pid=$(cat "$pidfile")
    kill -0 "$pid" 2>/dev/null && pids+=("$pid")
  done
  if ((${#pids[@]})); then
    kill -TERM "${pids[@]}" 2>/dev/null || true
    deadline=$((SECONDS + 10))
    for pid in "${pids[@]}"; do
      while kill -0 "$pid" 2>/dev/null; do
        if ((SECONDS >= deadline)); then kill -KILL "$pid" 2>/dev/null || true; fi
        sleep 0.05
      done
    done
  fi
  rm -f "$@"  # the daemons remove their own; this is for killed ones
}

# Runs "$@" without the caller's descriptors beyond stdin/out/err: a daemon
# must not inherit (and hold for its whole life) a lock its caller took,
# such as this script's start lock or `flock /work/.suite.lock`'s.
as_daemon() {
  (
    for fd in /proc/$BASHPID/fd/*; do
      fd=${fd##*/}
      ((fd > 2)) && eval "exec $fd>&-"
    done 2>/dev/null
    exec "$@"
  )
}

start_munge() {  # start_munge DIR
  local dir=$1 deadline
  alive "$dir/munge/munged.pid" && return 0
  if [[ ! -f $dir/munge/munge.key ]]; then
    dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
  fi
  chmod 700 "$dir/munge"
  chmod 400 "$dir/munge/munge.key"
  as_daemon munged --force --socket="$dir/munge/munge.socket" \
    --key-file="$dir/munge/munge.key" --pid-file="$dir/munge/munged.pid" \
    --log-file="$dir/log/munged.log" --seed-file="$dir/munge/munged.seed" ||
    die "munged did not start; see $dir/log/munged.log"
  deadline=$((SECONDS + 10))
  until munge -n -S "$dir/munge/munge.socket" 2>/dev/null |
      unmunge -S "$dir/munge/munge.socket" >/dev/null 2>&1; do
    ((SECONDS < deadline)) || die "munge does not answer on $dir/munge/munge.socket"
    sleep 0.05
  done
}

# The settings every bed's slurm.conf shares, for DIR (its munge socket,
# state, controller's pid and log): root daemons, munge, no cgroups, no
# accounting, scheduling at once.
conf_common() {  # conf_common DIR [SCHEDULER_PARAMETERS]
  local dir=$1 more=${2:+,$2}
  cat <<EOF
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmctldLogFile=$dir/log/slurmctld.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
# Schedule as soon as a job ends, not on the next 3 s batch pass: tests run
# many short jobs (a freed CPU still waits for slurmctld's 1 s tick).
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0$more
MailProg=/bin/true
# A cancelled job's processes get SIGKILL 5 s after SIGTERM (default 30 s):
# meanwhile the node is 'completing', and tests starting then would wait.
KillWait=5
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
EOF
}
