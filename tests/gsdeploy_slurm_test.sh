#!/usr/bin/env bash
# gsdeploy setup on the local Slurm testbed (tests/testbed/slurm.sh, started
# here if it is not running), issue 36: where `probe` reaches a Slurm host,
# `setup` must not call it UNREACHABLE.
#   gsdeploy_slurm_test.sh SRC TESTBED_DIR GSDEPLOY APP
# APP is a built application (its APP-worker beside it).
#   - a pilot host: probe answers (a pilot job connects back), and setup
#     checks the master's worker and gsrt-agent in place (exit 0, ready);
#   - the same host with a worker that does not start: MISSING, exit 1;
#   - a job-mode host without shared_fs: NOT SUPPORTED for slurm hosts,
#     naming the host and the key, exit 2; never UNREACHABLE.
set -euo pipefail
src=$1 testbed=$2 gsdeploy=$3 app=$4
source "$src/tests/lib/host_jobs.sh"
work=$(mktemp -d)
host="t-setup-$$"
cleanup() {
  cancel_host_jobs "$host"
  cancel_host_jobs "pilot-$host"
  rm -rf "$work"
}
trap cleanup EXIT
bash "$src/tests/testbed/slurm.sh" start "$testbed" > /dev/null
source "$testbed/slurm.env"
cd "$work"

cat > gsrt.yaml <<YAML
hosts:
  - name: $host
    adapter: slurm
    mode: pilot
    shared_fs: true
  - name: $host-nofs
    adapter: slurm
    mode: job
YAML

fail() { echo "FAIL: $*"; for f in out.txt err.txt; do [ -f $f ] && { echo "--- $f"; cat $f; }; done; exit 1; }
# run EXPECTED_STATUS ARGS...: runs gsdeploy, output in out.txt / err.txt.
run() {
  local want=$1; shift
  local status=0
  timeout 180 "$gsdeploy" "$@" > out.txt 2> err.txt || status=$?
  [ "$status" = "$want" ] || fail "gsdeploy $* exited $status, expected $want"
}
has() { grep -qF -- "$1" "${2:-out.txt}" || fail "'$1' not in ${2:-out.txt}"; }
hasnt() { ! grep -qF -- "$1" "${2:-out.txt}" || fail "'$1' in ${2:-out.txt}"; }

run 0 probe --host "$host"
has "1 host: 1 answered"

run 0 setup --host "$host" "$app"
hasnt "UNREACHABLE"
has "1 of 1 hosts ready"
has "$app-worker"
grep -E "^$host +shared +agent +ok +/" out.txt > /dev/null || fail "the agent is not checked in place"

# A worker that does not start (a copy of APP beside a broken worker).
mkdir broken
printf '#!/bin/sh\necho "libfoo.so: cannot open shared object file" >&2\nexit 127\n' > broken/app-worker
chmod +x broken/app-worker
run 1 setup --host "$host" "$work/broken/app"
has "MISSING"
has "libfoo.so"
hasnt "UNREACHABLE"

run 2 setup --host "$host-nofs" "$app"
has "NOT SUPPORTED"
has "not supported for slurm hosts as configured"
has "host '$host-nofs': \`mode: job\`"
has "shared_fs: true"
hasnt "UNREACHABLE"
echo "OK: gsdeploy setup on a Slurm host"
