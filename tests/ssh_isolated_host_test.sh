#!/usr/bin/env bash
# An ssh host that shares nothing with the master but the network, as a
# real remote machine: its sshd (tests/testbed/sshd.sh) runs in a mount
# namespace of its own in which the master's source and build trees,
# /usr/local, the agent's directory and every directory the agent names
# for its libraries (RPATH, RUNPATH) are empty. matmul runs every job there
# (the host is its only one) and must end with the sequential run's files.
# gsrt installs AGENT and the worker in the host's work dir; an agent that
# needs something of the master's machine fails to start there.
#
#   ssh_isolated_host_test.sh SOURCE_DIR BUILD_DIR MATMUL MATMUL_SEQUENTIAL AGENT
#
# Needs root (mounts, in a private mount namespace made by
# tests/testbed/private_mounts.sh: nothing outside this test sees them, also
# in a chroot); skipped otherwise. As root (CI) it never skips: a root that
# cannot make a mount namespace fails it.
set -euo pipefail
src=$1 build=$2 master=$(realpath "$3") sequential=$(realpath "$4") agent=$5
if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP: needs root to hide the master's files from the host (mounts)"
  exit 77
fi
source "$src/tests/testbed/private_mounts.sh"
private_mounts true ||
  { echo "FAIL: cannot make a private mount namespace here, as root"; exit 1; }
work=$(mktemp -d)
pid=
stop() {
  [ -z "$pid" ] || kill -KILL "$pid" 2>/dev/null || true
  bash "$work/sshd.sh" stop "$work/sshd" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap stop EXIT
fail() { echo "FAIL: $*"; exit 1; }

# What the host must not see. The agent's own library paths are read from
# the file (not ldd, which would resolve them here): an agent that names
# the master's build tree or install prefix gets them hidden as well.
agent=$(realpath "$agent")
hidden=("$(realpath "$src")" "$(realpath "$build")" /usr/local "$(dirname "$agent")")
while read -r dir; do
  case $dir in '' | *'$ORIGIN'* | *'${ORIGIN}'*) continue ;; esac
  [ -d "$dir" ] && hidden+=("$(realpath "$dir")")
done < <(readelf -d "$agent" | sed -n 's/.*(R\(UN\)\{0,1\}PATH).*\[\(.*\)\]$/\2/p' | tr ':' '\n')
# One mount per tree: a directory under another hidden one is hidden with it.
mapfile -t hidden < <(printf '%s\n' "${hidden[@]}" | sort -u |
  awk '{ for (i = 1; i <= n; i++) if (index($0 "/", kept[i] "/") == 1) next; kept[++n] = $0; print }')
for dir in "${hidden[@]}"; do
  case $work/ in "$dir"/*) fail "the test's directory $work is under $dir, which the host must not see" ;; esac
done

# The testbed script runs inside the namespace, where its own copy in the
# source tree is hidden.
cp "$src/tests/testbed/sshd.sh" "$src/tests/testbed/free_port.sh" "$work/"
mkdir -m 555 "$work/empty"
# sshd goes to the background and keeps the namespace alive after the
# shell that made it ends; its sessions (the agent, the workers) inherit it.
GSRT_SSHD_PORT=auto private_mounts bash -c '
  set -e
  empty=$1 testbed=$2 dir=$3
  shift 3
  for hide in "$@"; do mount --bind -o ro "$empty" "$hide"; done
  bash "$testbed" start 1 "$dir"
' _ "$work/empty" "$work/sshd.sh" "$work/sshd" "${hidden[@]}" > "$work/sshd.out" 2>&1 ||
  { cat "$work/sshd.out"; fail "the isolated sshd did not start"; }

# The host's sshd really runs apart, and sees none of the hidden paths.
sshd_pid=$(cat "$work/sshd/host1/sshd.pid")
[ "$(readlink "/proc/$sshd_pid/ns/mnt")" != "$(readlink /proc/self/ns/mnt)" ] ||
  fail "the host's sshd shares this test's mount namespace"
# Through the sshd's own root (/proc/PID/root), which also holds in a
# chroot, where nsenter --mount would start from the machine's real root.
for dir in "${hidden[@]}"; do
  [ -d "/proc/$sshd_pid/root$dir" ] || fail "the host has no $dir to look into"
  [ -z "$(ls -A "/proc/$sshd_pid/root$dir")" ] ||
    fail "the host sees the contents of $dir"
done
echo "host node1 hides: ${hidden[*]}"

# The isolated host alone: every job runs there or the run fails.
{
  printf 'runtime:\n  heartbeat: 1\n'
  grep -v '^#' "$work/sshd/gsrt.yaml"
} > "$work/gsrt.yaml"
mkdir "$work/parallel" "$work/sequential"
(cd "$work/sequential" && "$sequential" 3 24) > /dev/null
(cd "$work/parallel" && GSRT_AGENT="$agent" GSRT_CONFIG="$work/gsrt.yaml" \
  exec "$master" 3 24) > "$work/out" 2> "$work/err" &
pid=$!
# Bounded: a host that cannot start its agent is retried for a while
# before the run gives up.
if ! timeout 240 tail --pid="$pid" -f /dev/null; then
  tail -n 30 "$work/err"
  fail "matmul did not end within 240 s"
fi
status=0
wait "$pid" || status=$?
pid=
if [ "$status" -ne 0 ]; then
  tail -n 30 "$work/err"
  echo "the agent installed on the host:"
  nsenter --target="$sshd_pid" --mount --root ldd "$work/sshd/host1/work/bin/gsrt-agent" || true
  fail "matmul exited $status on the isolated host"
fi
diff -r --exclude=.gsrt "$work/parallel" "$work/sequential" ||
  fail "files differ from the sequential run"
hosts=$(sqlite3 "$work/parallel/.gsrt/history.db" \
  "select group_concat(host, ' ') from (select distinct host from jobs where outcome = 'ok')")
[ "$hosts" = node1 ] || fail "jobs ran on '$hosts', not on node1 alone"
jobs=$(sqlite3 "$work/parallel/.gsrt/history.db" "select count(*) from jobs where outcome = 'ok'")
echo "OK: matmul ran its $jobs jobs on a host that cannot see the master's files"
