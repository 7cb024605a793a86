#!/usr/bin/env bash
# A program that ignores GS_On's -1 (issue 36): its first call must stop it
# with the reason GS_On failed, not "called before GS_On()", and run nothing.
# Three causes: a GSRT_CONFIG that does not exist, a YAML error, a host
# that cannot be used.
#   failed_gs_on_test.sh FORGETFUL_MASTER
set -euo pipefail
master=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL ($1): $2"; echo "--- stderr:"; cat err.txt; exit 1; }

# check NAME REASON: the run with the current GSRT_CONFIG fails at GS_On
# with REASON (a fixed string), and `seed`, the first call, repeats it.
check() {
  local name=$1 reason=$2 status=0
  rm -f level-*.txt
  timeout 60 "$master" 1 ignore-gs-on > out.txt 2> err.txt || status=$?
  [ "$status" = 1 ] || fail "$name" "exited $status, not 1"
  grep -qF "gsrt: cannot start: " err.txt || fail "$name" "GS_On's failure is not said"
  grep -qF "$reason" err.txt || fail "$name" "the reason '$reason' is not given"
  grep -F "gsrt: seed called after GS_On() failed: " err.txt | grep -qF "$reason" ||
    fail "$name" "the first call does not repeat why GS_On failed"
  ! grep -q 'before GS_On' err.txt || fail "$name" "the first call blames a missing GS_On"
  [ ! -e level-0.txt ] || fail "$name" "a task ran"
  echo "ok: $name: $(grep -F 'seed called' err.txt)"
}

GSRT_CONFIG=$work/missing.yaml check missing-config "$work/missing.yaml"
printf 'hosts:\n  - name: local\n    adapter: local\n    slots: [2\n' > bad.yaml
GSRT_CONFIG=$work/bad.yaml check yaml-error "$work/bad.yaml"
printf 'hosts:\n  - name: far\n    adapter: teleport\n' > nohost.yaml
GSRT_CONFIG=$work/nohost.yaml check unknown-adapter "teleport"
echo "OK: a failed GS_On is named at the next call"
