#!/usr/bin/env bash
# Existing programs as operations (@Binary, issue 30), whole runs of
# tests/binary:
#   binary_test.sh SRC BINARY MODE
# (BINARY-sequential, beside BINARY, is the sequential build.)
# MODE:
#   local    the default local host: gzip and gunzip round trips through a
#            renamed data.gz, a sort by a column, a script whose arguments
#            hold spaces, quotes, $ and backquotes, a program that writes
#            only standard error; every file equals the sequential build's,
#            which runs the same programs in order.
#   ssh      the same on one real sshd host that shares no files with the
#            master (tests/testbed/sshd.sh): inputs staged there, outputs
#            back.
#   exit3    a program that exits 3 fails its task: the master exits
#            non-zero naming the operation, the program and its status.
#   missing  a program not installed on the host: the message says so and
#            what to do.
set -euo pipefail
src=$1 binary=$2 mode=$3
work=$(mktemp -d)
cleanup() {
  if [ "$mode" = ssh ]; then
    bash "$src/tests/testbed/sshd.sh" stop "$work/sshd" > /dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; tail -20 "$work/err" 2>/dev/null || true; exit 1; }

config=
if [ "$mode" = ssh ]; then
  GSRT_SSHD_PORT=auto bash "$src/tests/testbed/sshd.sh" start 1 "$work/sshd" > /dev/null
  config=$work/sshd/gsrt.yaml
fi
mkdir "$work/run" "$work/seq"
status=0
(cd "$work/run" && GSRT_CONFIG=$config timeout 300 "$binary" "$mode") \
  > "$work/out" 2> "$work/err" || status=$?

case $mode in
  exit3)
    [ "$status" != 0 ] || fail "a program that exits 3 did not fail the run"
    grep -q "exits3" "$work/err" || fail "the message does not name the operation"
    # The journal's path is the job's copy of journal.txt.
    grep -qE "program sh -c 'echo \"\\\$0\" >> \"\\\$1\"; exit 3' 'a line' [^ ]+ exited with status 3 \(success: 0\)" "$work/err" ||
      fail "the message does not name the program and its status: $(cat "$work/err")"
    echo "OK: binary exit3"
    exit 0 ;;
  missing)
    [ "$status" != 0 ] || fail "a missing program did not fail the run"
    grep -q "cannot run program gsrt-no-such-program" "$work/err" ||
      fail "the message does not name the program: $(cat "$work/err")"
    grep -q "install it on the host" "$work/err" || fail "the message does not say what to do"
    echo "OK: binary missing"
    exit 0 ;;
esac

[ "$status" = 0 ] || fail "master exited $status"
(cd "$work/seq" && "$binary-sequential" ok) > /dev/null 2> "$work/seq.err" ||
  fail "the sequential build failed: $(cat "$work/seq.err")"
diff -r --exclude=.gsrt "$work/run" "$work/seq" > "$work/diff" ||
  fail "files differ from the sequential build's: $(head -5 "$work/diff")"
cd "$work/run"
cmp -s round.txt data.txt || fail "gzip round trip changed the data"
[ "$(sort -t ' ' -k 2,2 -n data.txt)" = "$(cat sorted.txt)" ] || fail "sorted.txt is not sorted by column 2: $(cat sorted.txt)"
cmp -s round2.txt sorted.txt || fail "the second data.gz is not the sorted data"
# shellcheck disable=SC2016
[ "$(cat printed.txt)" = 'a b|it'"'"'s "q" $HOME;`x`' ] || fail "the script's arguments changed on the way: $(cat printed.txt)"
[ "$(cat err.txt)" = "only on stderr" ] || fail "err.txt: $(cat err.txt)"
[ ! -s data.gz ] && fail "data.gz is empty"
if [ "$mode" = ssh ]; then
  grep -q "on node1" "$work/err" || fail "no job ran on the ssh host: $(tail -5 "$work/err")"
fi
echo "OK: binary $mode"
