#!/usr/bin/env bash
# Host keys env, setup and launcher, and host_defaults, whole runs of
# tests/env:
#   env_test.sh SRC ENVTEST MODE [SLURM_DIR | GSDEPLOY]
# (ENVTEST-sequential, beside ENVTEST, is the sequential build.) The script
# makes an Lmod module tree in its temp dir: envtest/1.0 sets
# GSRT_ENVTEST_VAR=from-module and puts a bin directory holding
# `envtest-tool` on PATH. host_defaults gives every host MODULEPATH (env),
# GSRT_ENVTEST_HOSTVAR=from-defaults (env) and the setup line `module load
# envtest/1.0`; each host adds its own setup line (one string) appending
# "+host" to GSRT_ENVTEST_VAR, so `from-module+host` also says the defaults'
# line ran first. The master itself runs with none of these set.
# MODE:
#   local        a 2-slot local host whose env sets GSRT_ENVTEST_HOSTVAR
#                (the host's entry wins over host_defaults'): every job saw
#                the module's variable, the host's variable and ran the
#                module's tool, in the test's own pid namespace; the
#                master's output is the sequential build's run in the same
#                environment.
#   ssh          a local host and one real sshd host (tests/testbed/sshd.sh)
#                whose env overrides the variable and whose agent starts
#                its workers under bubblewrap (its launcher: another pid
#                namespace than the local host's jobs); runtime.hosts sends
#                `probe` to the local host and `probe_other` to node1, so
#                both run jobs; each saw its own host's values.
#   slurm-job    as local on the local Slurm (SLURM_DIR, tests/testbed/
#   slurm-pilot  slurm.sh) in job and pilot mode, with the defaults' values.
#   launcher     as local with a bubblewrap launcher (replacing
#                host_defaults' one, which is not installed): every job ran
#                in another pid namespace than the test's.
#   bad-setup    a host setup line `module load nosuch/9` stops the program
#                (bounded, no hang) with a message naming the host, the line
#                and Lmod's output; no report was written.
#                `gsdeploy probe` (GSDEPLOY, the 4th argument in this mode)
#                reports the host as not answering with the same message.
#   bad-launcher `launcher: [gsrt-no-such-launcher]` stops the program with
#                a message naming the launcher and the host.
# The launcher is bwrap: podman cannot run containers in the dev VM (crun: no CAP_SYS_RESOURCE, hybrid cgroups).
set -euo pipefail
source "$(dirname "$0")/lib/host_jobs.sh"
src=$1 app=$2 mode=$3 testbed=${4:-}
sequential=$app-sequential
work=$(mktemp -d)
host="env-$mode-$$"
cleanup() {
  case $mode in slurm-*) cancel_host_jobs "$host" ;; esac
  if [ "$mode" = ssh ]; then
    bash "$src/tests/testbed/sshd.sh" stop "$work/sshd" > /dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: env $mode: $*"; tail -20 "$work/err" 2>/dev/null || true; exit 1; }

# Lmod is what `module` is in a login shell (/etc/profile.d/lmod.sh).
timeout 30 sh -lc 'type module' > /dev/null 2>&1 ||
  fail "no 'module' command in a login shell: install lmod (scripts/install-deps.sh)"

# The module tree.
mkdir -p "$work/modules/envtest" "$work/modules/bin"
cat > "$work/modules/envtest/1.0.lua" <<EOF
-- The module of tests/env_test.sh.
setenv("GSRT_ENVTEST_VAR", "from-module")
prepend_path("PATH", "$work/modules/bin")
EOF
printf '#!/bin/sh\necho "envtest-tool: from the module"\n' > "$work/modules/bin/envtest-tool"
chmod +x "$work/modules/bin/envtest-tool"
defaults_setup='module load envtest/1.0'
# shellcheck disable=SC2016  # expanded by the host's shell, not here
host_setup='export GSRT_ENVTEST_VAR="$GSRT_ENVTEST_VAR+host"'
want_var='from-module+host'
want_tool='0 envtest-tool: from the module'

launcher=(bwrap --die-with-parent --unshare-pid --ro-bind / / --bind /tmp /tmp
          --bind "$work" "$work" --dev /dev --proc /proc)
if [ "$mode" = launcher ] || [ "$mode" = ssh ]; then
  command -v bwrap > /dev/null || fail "bwrap is not installed (package bubblewrap, scripts/install-deps.sh)"
  # The launcher must work here at all, else the test would only say that.
  timeout 30 "${launcher[@]}" true ||
    fail "bwrap does not run here (user or pid namespaces not allowed?): ${launcher[*]} true"
fi

# gsrt.yaml: runtime, host_defaults, then the host entries.
{
  if [ "$mode" = ssh ]; then
    printf 'runtime:\n  hosts: {probe: [%s], probe_other: [node1]}\n' "$host"
  fi
  printf 'host_defaults:\n'
  printf '  env: {MODULEPATH: "%s", GSRT_ENVTEST_HOSTVAR: from-defaults}\n' "$work/modules"
  printf "  setup: ['%s']\n" "$defaults_setup"
  # The host's launcher replaces this one, which would stop the host.
  if [ "$mode" = launcher ]; then printf '  launcher: [gsrt-no-such-launcher]\n'; fi
  printf 'hosts:\n  - name: %s\n' "$host"
  case $mode in
    slurm-job) printf '    adapter: slurm\n    mode: job\n    slots: 2\n    shared_fs: true\n' ;;
    slurm-pilot) printf '    adapter: slurm\n    mode: pilot\n    pilots: 1\n    cpus_per_task: 1\n    shared_fs: true\n' ;;
    ssh) printf '    adapter: local\n    slots: 1\n' ;;
    *) printf '    adapter: local\n    slots: 2\n' ;;
  esac
  case $mode in
    bad-setup) printf "    setup: ['module load nosuch/9']\n" ;;
    *) printf "    setup: '%s'\n" "$host_setup" ;;
  esac
  if [ "$mode" = local ]; then printf '    env: {GSRT_ENVTEST_HOSTVAR: from-host}\n'; fi
  if [ "$mode" = launcher ]; then
    printf '    launcher:\n'
    printf '      - "%s"\n' "${launcher[@]}"
  fi
  if [ "$mode" = bad-launcher ]; then printf '    launcher: [gsrt-no-such-launcher]\n'; fi
} > "$work/gsrt.yaml"
case $mode in
  ssh)
    GSRT_SSHD_PORT=auto bash "$src/tests/testbed/sshd.sh" start 1 "$work/sshd" > /dev/null
    printf "    env: {GSRT_ENVTEST_HOSTVAR: from-node1}\n    setup: '%s'\n" "$host_setup" > "$work/node1.yaml"
    # node1's agent puts the bubblewrap launcher before its workers.
    { printf '    launcher:\n'; printf '      - "%s"\n' "${launcher[@]}"; } >> "$work/node1.yaml"
    grep -v -e '^#' -e '^hosts:' "$work/sshd/gsrt.yaml" |
      sed "/name: node1/r $work/node1.yaml" >> "$work/gsrt.yaml" ;;
  slurm-job|slurm-pilot)
    bash "$src/tests/testbed/slurm.sh" start "$testbed" > /dev/null
    # shellcheck source=/dev/null
    source "$testbed/slurm.env" ;;
  local|launcher|bad-setup|bad-launcher) ;;
  *) fail "unknown mode $mode" ;;
esac

tasks=6 limit=200  # within ctest's TIMEOUT (300, Slurm 600)
case $mode in slurm-*) tasks=4 limit=480 ;; esac
mkdir "$work/run"
cd "$work/run"
# What the jobs see must come from gsrt.yaml, not from the master's
# environment.
status=0
env -u GSRT_ENVTEST_VAR -u GSRT_ENVTEST_HOSTVAR -u MODULEPATH \
  -u LOADEDMODULES -u _LMFILES_ GSRT_CONFIG="$work/gsrt.yaml" \
  timeout -k 10 "$limit" "$app" "$tasks" > "$work/out" 2> "$work/err" || status=$?
case $status in 124|137) fail "the run did not finish within $limit s" ;; esac

reports_left() { compgen -G 'report*.txt' > /dev/null; }
case $mode in
  bad-setup)
    [ "$status" != 0 ] || fail "a failing setup line did not stop the program"
    grep -qF "$host" "$work/err" || fail "the message does not name the host $host"
    grep -qF 'module load nosuch/9' "$work/err" || fail "the message does not name the failing line"
    grep -qF 'are unknown' "$work/err" || fail "the message does not carry the line's output (Lmod's error)"
    ! reports_left || fail "reports were written: $(ls report*.txt)"
    if [ -n "$testbed" ]; then  # gsdeploy's check says the same
      GSRT_CONFIG="$work/gsrt.yaml" timeout -k 10 120 "$testbed" probe \
        > "$work/probe" 2>&1 || fail "gsdeploy probe failed: $(cat "$work/probe")"
      grep -qE "^$host +local +NO" "$work/probe" ||
        fail "gsdeploy probe does not say $host did not answer: $(cat "$work/probe")"
      grep -qF 'its setup failed' "$work/probe" ||
        fail "gsdeploy probe does not say the setup failed: $(cat "$work/probe")"
      grep -qF 'module load nosuch/9' "$work/probe" ||
        fail "gsdeploy probe does not name the line: $(cat "$work/probe")"
    fi
    echo "OK: env bad-setup (the program stopped, naming $host and its line)"
    exit 0 ;;
  bad-launcher)
    [ "$status" != 0 ] || fail "a launcher that is not installed did not stop the program"
    grep -qF "launcher 'gsrt-no-such-launcher'" "$work/err" || fail "the message does not name the launcher"
    grep -qF 'is not installed' "$work/err" || fail "the message does not say the launcher is not installed"
    grep -qF "$host" "$work/err" || fail "the message does not name the host $host"
    ! reports_left || fail "reports were written: $(ls report*.txt)"
    echo "OK: env bad-launcher (the program stopped, naming the launcher and $host)"
    exit 0 ;;
esac

[ "$status" = 0 ] || fail "master exited $status"
# The sequential build in the environment the hosts' setup makes (PATH as
# a login shell sets it, then the module's).
mkdir "$work/seq"
(cd "$work/seq" &&
  env -u GSRT_ENVTEST_VAR -u LOADEDMODULES -u _LMFILES_ \
    MODULEPATH="$work/modules" GSRT_ENVTEST_HOSTVAR=from-defaults \
    timeout 30 sh -lc "$defaults_setup && $host_setup && exec \"\$0\" \"\$@\"" \
    "$sequential" "$tasks") > "$work/seq_out" 2> "$work/seq_err" ||
  fail "the sequential build failed: $(cat "$work/seq_err")"
grep -qxF "var=$want_var" "$work/seq_out" ||
  fail "the module does not work by hand: $(cat "$work/seq_out" "$work/seq_err")"
cmp -s "$work/out" "$work/seq_out" ||
  fail "output differs from the sequential build's: $(diff "$work/out" "$work/seq_out")"

# Each report, by the host it ran on (node1's jobs ran under its workdir).
own_ns=$(readlink /proc/self/ns/pid)
get() { sed -n "s/^$2=//p" "$1"; }
on_node1=0 on_local=0
for ((i = 0; i < tasks; i++)); do
  r=report$i.txt
  [ -s "$r" ] || fail "$r is missing or empty"
  where=local
  case $(get "$r" cwd) in "$work/sshd/host1/"*) where=node1 ;; esac
  if [ "$where" = node1 ]; then on_node1=$((on_node1 + 1)); else on_local=$((on_local + 1)); fi
  [ "$(get "$r" index)" = "$i" ] || fail "$r has the wrong index: $(cat "$r")"
  [ "$(get "$r" var)" = "$want_var" ] ||
    fail "$r ($where): GSRT_ENVTEST_VAR is not the setup's (module, then the host's line): $(cat "$r")"
  [ "$(get "$r" tool)" = "$want_tool" ] ||
    fail "$r ($where): envtest-tool did not run from the module's PATH: $(cat "$r")"
  want_hostvar=from-defaults
  if [ "$mode" = local ]; then want_hostvar=from-host; fi
  if [ "$where" = node1 ]; then want_hostvar=from-node1; fi
  [ "$(get "$r" hostvar)" = "$want_hostvar" ] ||
    fail "$r ($where): GSRT_ENVTEST_HOSTVAR is not $want_hostvar: $(cat "$r")"
  case $mode in
    launcher)
      [ "$(get "$r" pidns)" != "$own_ns" ] ||
        fail "$r: the job ran in the test's pid namespace ($own_ns), not in the launcher's sandbox" ;;
    local)
      [ "$(get "$r" pidns)" = "$own_ns" ] ||
        fail "$r: without a launcher the job ran in another pid namespace: $(cat "$r")" ;;
    ssh)  # node1's agent starts its workers under bubblewrap, here none
      if [ "$where" = node1 ]; then
        [ "$(get "$r" pidns)" != "$own_ns" ] ||
          fail "$r: node1's job did not run under its launcher: $(cat "$r")"
      else
        [ "$(get "$r" pidns)" = "$own_ns" ] ||
          fail "$r: the local job ran under node1's launcher: $(cat "$r")"
      fi ;;
  esac
  if [ "$mode" = ssh ]; then
    want_where=local
    if ((i % 2)); then want_where=node1; fi
    [ "$where" = "$want_where" ] || fail "$r ran on $where, runtime.hosts keeps it to $want_where"
  fi
done
detail="$tasks jobs"
if [ "$mode" = ssh ]; then detail="$on_local jobs on $host, $on_node1 on node1"; fi
if [ "$mode" = launcher ]; then detail="$detail, in bwrap's pid namespace,"; fi
echo "OK: env $mode ($detail saw the module, the host's env and the tool)"
