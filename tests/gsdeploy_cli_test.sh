#!/usr/bin/env bash
# Smoke test of the gsdeploy command line: --help of every subcommand, each
# subcommand on local hosts, and the bad-input exit codes (2: command line
# or config, 3: unusable history left byte-identical).
#   gsdeploy_cli_test.sh PATH/TO/gsdeploy
set -euo pipefail
gsdeploy=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

fail() { echo "FAIL: $*"; for f in out.txt err.txt; do [ -f $f ] && { echo "--- $f"; cat $f; }; done; exit 1; }
# run EXPECTED_STATUS ARGS...: runs gsdeploy, output in out.txt / err.txt.
run() {
  local want=$1; shift
  local status=0
  timeout 60 "$gsdeploy" "$@" > out.txt 2> err.txt || status=$?
  [ "$status" = "$want" ] || fail "gsdeploy $* exited $status, expected $want"
}
has() { grep -qF -- "$1" "${2:-out.txt}" || fail "'$1' not in ${2:-out.txt}"; }

# --help, for the tool and every subcommand.
run 0 --help
for sub in probe rank history setup; do has "$sub"; done
has "Exit codes"
for sub in probe rank history setup; do
  run 0 "$sub" --help
  has "--config"
  has "Exit codes"
done
run 0 rank --help
for opt in --op --mem --alpha --beta --mu --gamma --json; do has "$opt"; done
run 0 history --help
has "--since"
run 0 setup --help
has "APP"
run 2                 # no subcommand
run 2 nosuch
run 2 rank --alpha x

cat > gsrt.yaml <<'YAML'
runtime:
  rank: {alpha: 0.5, beta: 0.5, mu: 1.0, gamma: 1.0}
hosts:
  - name: a
    adapter: local
    slots: 1
  - name: b
    adapter: local
    slots: 1
YAML

# probe: both local hosts answer; the history file is created.
run 0 probe
has "2 hosts: 2 answered, 0 did not answer"
has "shared files"
[ -f .gsrt/history.db ] || fail "no history file after probe"
run 0 probe --host b

# rank: table and JSON.
run 0 rank
has "GRANK"
has "1.00 (1/1)"
has "1.00 (2/2)"
run 0 rank --json
has '"schema": "gsdeploy-rank/1"'
if command -v python3 > /dev/null; then
  python3 -m json.tool out.txt > /dev/null || fail "rank --json is not JSON"
fi
run 0 rank --mem 1000T --alpha 1 --beta 0
has "Ineligible:"
has "not enough free memory"
run 2 rank --mem lots

# history.
run 0 history
has "probe: answered"
run 0 history --host b --since 1h
has "b"
run 0 history --since 2000-01-01
run 2 history --since yesterday
has "2h" err.txt
run 2 history --host nosuch
has "the configured hosts are: a, b" err.txt

# setup: the worker beside APP must start.
printf '#!/bin/sh\necho "gsrt-worker app 0.1.0"\n' > app-worker
chmod +x app-worker
run 0 setup ./app
has "gsrt-worker app 0.1.0"
has "2 of 2 hosts ready"
run 1 setup ./nosuch
has "MISSING"
run 2 setup            # APP is required

# Malformed configuration: file:line:col, exit 2, nothing recorded.
cp .gsrt/history.db saved.db
printf 'hosts:\n  - name: a\n    adapter: local\n    slots: four\n' > bad.yaml
run 2 probe --config bad.yaml
has "bad.yaml:4:" err.txt
cmp -s .gsrt/history.db saved.db || fail "probe with a bad config changed the history"
run 2 rank --config nosuch.yaml

# A history with a newer schema: exit 3, file byte-identical.
sqlite3 .gsrt/history.db 'PRAGMA journal_mode = DELETE; PRAGMA user_version = 99;' > /dev/null
cp .gsrt/history.db newer.db
for cmd in probe rank history; do
  run 3 $cmd
  has "schema version 99" err.txt
  cmp -s .gsrt/history.db newer.db || fail "$cmd changed a newer-schema history"
done

# Not a database: exit 3, untouched.
head -c 4096 /dev/zero | tr '\0' 'x' > .gsrt/history.db
cp .gsrt/history.db junk.db
run 3 rank
cmp -s .gsrt/history.db junk.db || fail "rank changed a file that is not a database"

echo "OK: gsdeploy command line"
