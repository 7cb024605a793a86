# Sourced by tests: private_mounts COMMAND [ARG...] runs COMMAND in a mount
# namespace of its own whose mounts nobody outside it sees, also where `/`
# is not a mount point (a chroot), where `unshare --propagation private`
# fails. Every mount the namespace can name is made private; a chroot's
# root, which it cannot name, must not propagate (a probe mount checks
# that). Fails, saying why, where that cannot be ensured. Needs root.
# A COMMAND that leaves a daemon behind keeps the namespace alive.

private_mounts() {
  # Descriptor 87: the mount table of the namespace this is called in, opened
  # before unshare (a pid would not do: bash may exec unshare in its place).
  unshare --mount --propagation unchanged -- bash -c '
    set -e
    fail() { echo "private_mounts: $*" >&2; exit 1; }
    if ! mount --make-rprivate / 2>/dev/null; then
      # / is not a mount point: make private each mount that can be named
      # (octal escapes as /proc writes them; read whole first, as each
      # change rewrites the file), then check the rest.
      points=$(cut -d " " -f 5 /proc/self/mountinfo | sort -u)
      while read -r point; do
        [ -n "$point" ] || continue
        point=$(printf "%b" "$point")
        mount --make-rprivate "$point" ||
          fail "cannot make the mount on $point private"
      done <<< "$points"
      probe=$(mktemp -d /.gsrt-private-mounts.XXXXXX) ||
        fail "/ is not a mount point and not writable: cannot check that mounts stay inside"
      mount -t tmpfs -o size=4k gsrt-probe "$probe" || { rmdir "$probe"; fail "cannot mount a tmpfs"; }
      leaks=0
      grep -qF " $probe " <&87 && leaks=1
      umount "$probe" && rmdir "$probe"
      ((leaks == 0)) || fail "/ is not a mount point and the file system under it propagates mounts (shared): this namespace'"'"'s mounts would show outside it. Make the chroot'"'"'s root a mount point first: mount --bind DIR DIR && mount --make-private DIR"
    fi
    exec 87<&- "$@"
  ' private_mounts "$@" 87</proc/self/mountinfo
}
