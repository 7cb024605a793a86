#!/usr/bin/env bash
# Hosts to try gsrt on one machine: what `gsrt testbed` runs (installed in
# share/gsrt/testbed beside sshd.sh and slurm.sh, which it drives).
#
#   testbed.sh start DIR SSH SLURM   SSH sshd hosts (0: none) on 127.0.0.2,
#                                    ...; SLURM 1: a one-node Slurm (root)
#   testbed.sh stop DIR              stop what start started under DIR
#   testbed.sh status DIR            what runs there; exit 0 if all answer
#
# start writes DIR/gsrt.yaml, one host per server: ssh hosts with their
# keys in DIR/ssh (host keys checked against DIR/ssh/known_hosts; no
# passwords), the Slurm host through DIR/slurm/slurm.env (SLURM_CONF).
# Ports are picked free, so several testbeds and test runs can coexist.
# Every wait is bounded (sshd.sh: GSRT_SSHD_WAIT, slurm.sh: GSRT_SLURM_WAIT).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

started_dir=  # set while start runs: stopped if it fails
die() { echo "gsrt testbed: $*" >&2; exit 1; }
usage() { die "usage: testbed.sh start DIR SSH SLURM | stop DIR | status DIR"; }

source "$here/free_port.sh"

write_config() {  # write_config DIR SSH SLURM
  local dir=$1 ssh=$2 slurm=$3
  {
    echo "# Written by gsrt testbed: the hosts started under $dir."
    echo "# Stop them with: gsrt testbed stop --dir $dir"
    if ((slurm)); then
      echo "# The slurm host needs SLURM_CONF: source $dir/slurm/slurm.env first."
    fi
    echo "hosts:"
    if ((ssh)); then grep -v '^#' "$dir/ssh/gsrt.yaml" | grep -v '^hosts:'; fi
    if ((slurm)); then
      cat <<EOF
  - name: slurm
    adapter: slurm
    mode: job              # pilot: for many short tasks (docs/slurm.md)
    slots: $(nproc)
    shared_fs: true
EOF
    fi
  } >"$dir/gsrt.yaml"
}

start() {  # start DIR SSH SLURM
  local dir=$1 ssh=$2 slurm=$3 i
  [[ $ssh =~ ^[0-9]+$ ]] || die "the number of ssh hosts must be a number, got '$ssh'"
  [[ $slurm == 0 || $slurm == 1 ]] || usage
  ((ssh || slurm)) || die "nothing to start: give --ssh N (N > 0) or --slurm"
  ((ssh <= 250)) || die "at most 250 ssh hosts (127.0.0.2 .. 127.0.0.251)"
  if ((slurm)) && [[ $(id -u) != 0 ]]; then
    die "a one-node Slurm needs root (its daemons run as root): run it as root or with sudo, or leave out --slurm"
  fi
  if ((ssh)) && [[ ! -x /usr/sbin/sshd ]] && [[ $(id -u) != 0 ]]; then
    die "sshd is not installed: install the Debian packages openssh-server and openssh-client (sudo apt-get install openssh-server openssh-client), or run this as root to have them installed"
  fi
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  # A start that fails stops what it started, so nothing is left running.
  started_dir=$dir
  trap 'if [[ -n $started_dir ]]; then stop "$started_dir" >/dev/null 2>&1 || true; fi' EXIT
  if ((ssh)); then
    GSRT_SSHD_PORT=auto bash "$here/sshd.sh" start "$ssh" "$dir/ssh" >/dev/null ||
      die "the ssh hosts did not start (see the messages above)"
  elif [[ -d $dir/ssh ]]; then
    bash "$here/sshd.sh" stop "$dir/ssh" >/dev/null
  fi
  if ((slurm)); then
    local ctld
    ctld=$(free_port)
    GSRT_SLURMCTLD_PORT=$ctld GSRT_SLURMD_PORT=$(free_port "$ctld") \
      bash "$here/slurm.sh" start "$dir/slurm" >/dev/null ||
      die "the Slurm node did not start (see the messages above)"
  elif [[ -f $dir/slurm/slurm.env ]]; then
    bash "$here/slurm.sh" stop "$dir/slurm" >/dev/null
  fi
  write_config "$dir" "$ssh" "$slurm"
  echo "$ssh $slurm" >"$dir/testbed.state"
  started_dir=

  echo "gsrt testbed: started under $dir:"
  if ((ssh)); then
    # shellcheck disable=SC1091
    source "$dir/ssh/hosts.env"
    i=0
    for addr in $GSRT_SSHD_HOSTS; do
      i=$((i + 1))
      echo "  node$i  ssh host $addr port $GSRT_SSHD_PORT (user $GSRT_SSHD_USER, key $GSRT_SSHD_IDENTITY)"
    done
    echo "  host keys: $GSRT_SSHD_KNOWN_HOSTS"
  fi
  if ((slurm)); then
    echo "  slurm  one-node Slurm ($(hostname -s), $(nproc) CPUs); first: source $dir/slurm/slurm.env"
  fi
  echo "config: $dir/gsrt.yaml"
  echo "try:    GSRT_CONFIG=$dir/gsrt.yaml ./your-program"
  echo "stop:   gsrt testbed stop --dir $dir"
}

stop() {  # stop DIR
  local dir=$1
  [[ -d $dir ]] || { echo "gsrt testbed: nothing started under $dir"; return 0; }
  dir=$(cd "$dir" && pwd)
  if [[ -d $dir/slurm ]]; then
    [[ $(id -u) == 0 ]] || die "the Slurm node under $dir runs as root: stop it as root"
    bash "$here/slurm.sh" stop "$dir/slurm" >/dev/null
  fi
  [[ ! -d $dir/ssh ]] || bash "$here/sshd.sh" stop "$dir/ssh" >/dev/null
  rm -f "$dir/testbed.state"
  echo "gsrt testbed: stopped everything under $dir"
}

status() {  # status DIR
  local dir=$1 ssh slurm rc=0
  [[ -f $dir/testbed.state ]] || { echo "gsrt testbed: nothing started under $dir"; return 1; }
  read -r ssh slurm <"$dir/testbed.state"
  if ((ssh)); then bash "$here/sshd.sh" status "$dir/ssh" || rc=1; fi
  if ((slurm)); then bash "$here/slurm.sh" status "$dir/slurm" || rc=1; fi
  echo "config: $dir/gsrt.yaml"
  return $rc
}

case "${1:-}" in
  start) (($# == 4)) || usage; start "$2" "$3" "$4" ;;
  stop) (($# == 2)) || usage; stop "$2" ;;
  status) (($# == 2)) || usage; status "$2" ;;
  *) usage ;;
esac
