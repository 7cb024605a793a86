#!/usr/bin/env bash
# A bad environment under a real master (matmul): each case must end with
# a clear error naming what failed and what to do, and no user file lost
# or half-written (every file the user had is byte for byte its old
# content or the sequential run's, and no temporary is left beside it).
#
#   bad_environment_test.sh MATMUL MATMUL_SEQUENTIAL
#
# full-staging  the run's directory (and .gsrt in it) on a small tmpfs that
#               fills up while jobs stage and write their files
# full-off      the work dir on a roomy tmpfs, the user's directory on one
#               left with almost no room: GS_Off cannot copy the results
#               across (the old files must stay whole, the results kept)
# read-only     the work dir on a read-only bind mount
# locked        the history held by another process's write transaction
#
# Needs root for the mounts, done in a private mount namespace
# (tests/testbed/private_mounts.sh, also in a chroot) so nothing outside
# this test sees them; skipped otherwise. As root it never skips.
set -euo pipefail
master=$1 sequential=$2
if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP: needs root for tmpfs mounts"
  exit 77
fi
source "$(dirname "$0")/testbed/private_mounts.sh"
private_mounts true ||
  { echo "FAIL: cannot make a private mount namespace here, as root"; exit 1; }
top=$(mktemp -d)
holder=
cleanup() {
  [ -n "$holder" ] && kill "$holder" 2>/dev/null
  rm -rf "$top"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }
yaml() {  # yaml WORK_DIR
  printf 'runtime:\n  work_dir: %s\nhosts:\n  - name: master\n    adapter: local\n    slots: 2\n' "$1"
}
# Every file in $1 (but .gsrt and gsrt.yaml) must be as in $2 (its old
# content) or in $3 (the sequential run's).
check_whole() {
  local dir=$1 old=$2 seq=$3 f name
  for f in "$dir"/*; do
    name=$(basename "$f")
    case $name in gsrt.yaml | out | err) continue ;; esac
    case $name in *gsrt-part*) fail "temporary $name left in the user's directory" ;; esac
    cmp -s "$f" "$old/$name" 2>/dev/null && continue
    cmp -s "$f" "$seq/$name" 2>/dev/null && continue
    fail "$name is neither its old content nor the result (half-written)"
  done
  for f in "$old"/*; do
    [ -e "$dir/$(basename "$f")" ] || fail "$(basename "$f") was lost"
  done
}

n=3 bs=48
mkdir -p "$top/seq" "$top/old"
(cd "$top/seq" && "$sequential" $n $bs >/dev/null)
# The user's files from an earlier, smaller run: the new ones are larger,
# so overwriting one in place on a full disk would leave it half-written.
(cd "$top/old" && "$sequential" $n 16 >/dev/null)
echo "something of the user's" > "$top/old/notes.txt"

# --- full-staging: .gsrt on the same small tmpfs as the run ---------------
mkdir "$top/a"
private_mounts bash -c '
  set -e
  mount -t tmpfs -o size=400k tmpfs "$1"
  cp "$2"/* "$1"/
  cd "$1"
  printf "hosts:\n  - name: master\n    adapter: local\n    slots: 2\n" > gsrt.yaml
  # Its messages go outside the full disk: written there, they could be
  # lost to the very error they report.
  if "$3" '"$n $bs"' > "$4/out" 2> "$4/err"; then echo "ran"; fi
  rm -f gsrt.yaml; rm -rf .gsrt
  mkdir "$4/files"; cp -p ./* "$4/files/" 2>/dev/null || true
' _ "$top/a" "$top/old" "$master" "$top" > "$top/a.result"
grep -q ran "$top/a.result" && fail "full-staging: the run succeeded on a full disk"
grep -qi "no space left on device" "$top/err" ||
  { cat "$top/err"; fail "full-staging: no error names the full disk"; }
# One grep: with pipefail, `grep | grep -q` fails when the first grep is
# still writing as the second leaves at its first match (SIGPIPE).
grep -q "failed after.*is full (no space left on device)" "$top/err" ||
  { cat "$top/err"; fail "full-staging: failed jobs do not say the disk is full"; }
grep -q "no transaction is active" "$top/err" &&
  fail "full-staging: the history hides the full disk behind a failed COMMIT"
check_whole "$top/files" "$top/old" "$top/seq"
echo "full-staging: $(grep -ci 'no space left' "$top/err") messages name the full disk; user files whole"
rm -rf "$top/files" "$top/out" "$top/err"

# --- full-off: results cannot be copied to the user's file system ---------
mkdir "$top/b" "$top/bwork"
private_mounts bash -c '
  set -e
  mount -t tmpfs -o size=4m tmpfs "$5"
  mount -t tmpfs -o size=200k tmpfs "$1"
  cp "$2"/* "$1"/
  cd "$1"
  printf "runtime:\n  work_dir: %s\nhosts:\n  - name: master\n    adapter: local\n    slots: 2\n" "$5/w" > gsrt.yaml
  # Leave a few KiB: less than any result block.
  dd if=/dev/zero of=filler bs=1k count=$(( $(df -k --output=avail . | tail -1) - 8 )) 2>/dev/null
  # Its messages go outside the full disk, as above.
  if "$3" '"$n $bs"' > "$4/out" 2> "$4/err"; then echo "ran"; fi
  rm -f filler
  ls "$5/w/unsaved" > "$4/unsaved" 2>/dev/null || true
  mkdir "$4/kept"; cp "$5"/w/unsaved/* "$4/kept/" 2>/dev/null || true
  rm -f gsrt.yaml
  mkdir "$4/files"; cp -p ./* "$4/files/"
' _ "$top/b" "$top/old" "$master" "$top" "$top/bwork" > "$top/b.result"
grep -q ran "$top/b.result" && fail "full-off: the run succeeded on a full disk"
grep -q "cannot put the final version of .* in place (.*No space left on device.*it is kept as" "$top/err" ||
  { cat "$top/err"; fail "full-off: no error says the result could not be put in place and where it is kept"; }
check_whole "$top/files" "$top/old" "$top/seq"
[ -s "$top/unsaved" ] || fail "full-off: no result kept in the work dir's unsaved/"
for k in "$top"/kept/*; do
  name=$(basename "$k" | sed 's/^[0-9]*-//')
  cmp -s "$k" "$top/seq/$name" || fail "full-off: kept $(basename "$k") differs from the sequential $name"
done
echo "full-off: $(wc -l < "$top/unsaved") results kept in unsaved/ and equal to the sequential run's; user files whole"
rm -rf "$top/files" "$top/kept" "$top/out" "$top/err"

# --- read-only: the work dir cannot be written -----------------------------
mkdir -p "$top/c/.gsrt"
cp "$top/old"/* "$top/c/"
out=$(private_mounts bash -c '
  mount --bind "$1/.gsrt" "$1/.gsrt" && mount -o remount,bind,ro "$1/.gsrt"
  cd "$1" && printf "hosts:\n  - name: master\n    adapter: local\n    slots: 2\n" > gsrt.yaml
  "$2" '"$n $bs"' 2>&1 && echo "ran"' _ "$top/c" "$master") || true
grep -q "^ran" <<< "$out" && fail "read-only: the run succeeded"
grep -q "cannot create the work directory $top/c/.gsrt: .*Read-only file system (make it writable, or set runtime.work_dir" <<< "$out" ||
  { echo "$out"; fail "read-only: the error does not name the directory and what to do"; }
rm -f "$top/c/gsrt.yaml"
check_whole "$top/c" "$top/old" "$top/seq"
echo "read-only: $(echo "$out" | head -1)"

# --- locked: another process holds the history's write lock ----------------
mkdir "$top/d"
cp "$top/old"/* "$top/d/"
printf 'hosts:\n  - name: master\n    adapter: local\n    slots: 2\n' > "$top/d/gsrt.yaml"
(cd "$top/d" && "$master" 1 4 >/dev/null 2>&1) || fail "locked: the first run failed"
db=$top/d/.gsrt/history.db
fifo=$top/holder.fifo
mkfifo "$fifo"
# sqlite3 keeps the transaction open until the fifo gives it more input.
sqlite3 "$db" < "$fifo" > "$top/holder.out" 2>&1 &
holder=$!
exec 7> "$fifo"
echo "BEGIN IMMEDIATE; INSERT INTO hosts (name, adapter) VALUES ('held', 'x'); SELECT 'locked';" >&7
for _ in $(seq 1 100); do grep -q locked "$top/holder.out" && break; sleep 0.1; done
grep -q locked "$top/holder.out" || fail "locked: the other process did not take the lock"
(cd "$top/d" && "$master" $n $bs > out 2> err) && status=0 || status=$?
echo "ROLLBACK;" >&7
exec 7>&-
wait "$holder" || true
holder=
grep -q "history.db.*another process holds the database lock.*wait for that process to end" "$top/d/err" ||
  { cat "$top/d/err"; fail "locked: the message does not say the history is locked and what to do"; }
rm -f "$top/d/gsrt.yaml"
check_whole "$top/d" "$top/old" "$top/seq"
echo "locked: exit $status; $(grep -m1 'another process' "$top/d/err" | cut -c1-160)"
echo "OK: bad environment: full disk while staging and at GS_Off, read-only work dir, locked history"
