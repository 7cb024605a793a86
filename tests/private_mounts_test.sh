#!/usr/bin/env bash
# tests/testbed/private_mounts.sh, the mount namespace the root-only tests
# make (ssh.isolated_host, bad_environment), where `/` is not a mount point:
# a chroot into a directory of a tmpfs (issue 36, point 15). There
# `unshare --mount --propagation private` fails ("cannot change root
# filesystem propagation"); private_mounts must give a namespace whose
# mounts work inside and do not show outside. When the chroot's file system
# propagates mounts (shared) it must refuse, and leave nothing mounted.
# The same on this machine's real root.
#
#   private_mounts_test.sh SOURCE_DIR
#
# Needs root (mounts, chroot); skipped otherwise, never as root.
set -euo pipefail
src=$(realpath "$1")
if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP: needs root (mounts, chroot)"
  exit 77
fi
helper=$src/tests/testbed/private_mounts.sh
[ -f "$helper" ] || { echo "FAIL: no $helper"; exit 1; }
source "$helper"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# What runs in each chroot (and on the real root): a file hidden by a bind
# mount inside the namespace must be hidden there and visible after it.
cat > "$work/body.sh" <<'EOF'
set -u
dir=$1
source "$dir/private_mounts.sh"
mkdir -p "$dir/hide" "$dir/empty"
echo secret > "$dir/hide/file"
inside='
  mount --bind "$1/empty" "$1/hide" || exit 1
  [ -z "$(ls -A "$1/hide")" ] && echo "inside: hidden"'
private_mounts bash -c "$inside" _ "$dir"
echo "private_mounts: exit $?"
# Again from a command substitution, as bad_environment calls it: there
# bash runs unshare in the subshell's place (its pid is then inside).
out=$(private_mounts bash -c "$inside" _ "$dir") || true
echo "$out" | sed "s/^inside:/inside (substituted):/"
[ -f "$dir/hide/file" ] && echo "outside: visible"
grep -q " $dir/hide " /proc/self/mountinfo && echo "outside: LEAKED MOUNT"
ls -A / | grep -q '^\.gsrt-private-mounts' && echo "outside: LEFT A PROBE"
true
EOF

# The real root first.
mkdir "$work/real"
cp "$helper" "$work/real/"
out=$(bash "$work/body.sh" "$work/real" 2>&1)
echo "real root: $(echo "$out" | tr '\n' ';')"
grep -q "inside: hidden" <<< "$out" && grep -q "inside (substituted): hidden" <<< "$out" &&
  grep -q "private_mounts: exit 0" <<< "$out" &&
  grep -q "outside: visible" <<< "$out" || fail "on the real root: $out"

# A chroot whose / is a plain directory of a tmpfs mounted with PROPAGATION.
# The scaffolding lives in a namespace of its own (private_mounts, as it
# works on the real root) so none of it shows outside this test.
chroot_run() {  # chroot_run PROPAGATION
  private_mounts bash -c '
    set -e
    fs=$1 propagation=$2 helper=$3 body=$4
    mkdir -p "$fs"
    mount -t tmpfs -o size=16m gsrt-test "$fs"
    mount --make-"$propagation" "$fs"
    root=$fs/dir/root
    mkdir -p "$root"/{proc,dev,tmp,t}
    for d in usr bin sbin lib lib32 lib64 libx32 etc; do
      if [ -L "/$d" ]; then cp -P "/$d" "$root/$d"
      elif [ -d "/$d" ]; then mkdir "$root/$d"; mount --rbind "/$d" "$root/$d"
      fi
    done
    mount -t proc proc "$root/proc"
    mount --rbind /dev "$root/dev"
    cp "$helper" "$body" "$root/t/"
    mountpoint -q "$root" && { echo "the chroot root is a mount point"; exit 1; }
    if chroot "$root" unshare --mount --propagation private true 2>/dev/null; then
      echo "plain unshare: works"
    else
      echo "plain unshare: fails"
    fi
    chroot "$root" bash /t/body.sh /t 2>&1
    grep -q " $root/t/hide " /proc/self/mountinfo && echo "scaffolding: LEAKED MOUNT"
    true
  ' _ "$work/fs-$1" "$1" "$helper" "$work/body.sh"
}

out=$(chroot_run private 2>&1) || fail "chroot (private): $out"
echo "chroot, private: $(echo "$out" | tr '\n' ';')"
grep -q "plain unshare: fails" <<< "$out" ||
  fail "the chroot does not reproduce the problem (unshare --propagation private works there)"
grep -q "inside: hidden" <<< "$out" || fail "chroot (private): the mount did not work inside: $out"
grep -q "private_mounts: exit 0" <<< "$out" || fail "chroot (private): private_mounts failed: $out"
grep -q "inside (substituted): hidden" <<< "$out" ||
  fail "chroot (private): private_mounts failed in a command substitution: $out"
grep -q "outside: visible" <<< "$out" || fail "chroot (private): the mount shows outside: $out"
grep -q "LEAKED\|LEFT" <<< "$out" && fail "chroot (private): $out"

out=$(chroot_run shared 2>&1) || fail "chroot (shared): $out"
echo "chroot, shared: $(echo "$out" | tr '\n' ';')"
grep -q "exit 0" <<< "$out" &&
  fail "chroot (shared): private_mounts ran though its mounts would show outside"
grep -q "propagates mounts (shared)" <<< "$out" ||
  fail "chroot (shared): no message says why: $out"
grep -q "inside.*: hidden" <<< "$out" && fail "chroot (shared): the command ran"
grep -q "outside: visible" <<< "$out" || fail "chroot (shared): $out"
grep -q "LEAKED\|LEFT" <<< "$out" && fail "chroot (shared): $out"
echo "OK: private mount namespaces on the real root and in a chroot; refused where mounts would propagate"
