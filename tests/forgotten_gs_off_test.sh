#!/usr/bin/env bash
# A master that returns from main without GS_Off (issue 12): gsrt finishes
# the run as GS_Off would (every output under its name, the run ended in the
# history) and says so loudly on stderr.
#   forgotten_gs_off_test.sh FORGETFUL_MASTER
set -euo pipefail
master=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
printf 'hosts:\n  - name: local\n    adapter: local\n    slots: 2\n' > gsrt.yaml
export GSRT_CONFIG="$work/gsrt.yaml"
status=0
timeout 120 "$master" 3 > out.txt 2> err.txt || status=$?
[ "$status" = 0 ] || { echo "FAIL: exited $status"; cat err.txt; exit 1; }
grep -q "without GS_Off" err.txt || { echo "FAIL: nothing said"; cat err.txt; exit 1; }
for l in 0 1 2 3; do
  [ -s "level-$l.txt" ] || { echo "FAIL: level-$l.txt was not put in place"; ls -la; cat err.txt; exit 1; }
done
expect=$(printf 'column 0\nlevel 1 index 0\nlevel 2 index 0\nlevel 3 index 0\n')
[ "$(cat level-3.txt)" = "$expect" ] ||
  { echo "FAIL: level-3.txt holds"; cat level-3.txt; exit 1; }
run=$(sqlite3 .gsrt/history.db "select status from runs order by id desc limit 1")
[ "$run" != running ] || { echo "FAIL: the run still looks interrupted"; exit 1; }
echo "OK: a forgotten GS_Off finished the run ($run) and said so"
