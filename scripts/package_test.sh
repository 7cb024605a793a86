#!/usr/bin/env bash
# The packages on bare Debian 12 roots (debootstrap minbase), as a user
# would meet them (docs/install.md); the `package` stage of .ci/run. Needs
# root (debootstrap, chroot, bind mounts) and Debian's package archive.
#  1. The bundle, unpacked by the user `nobody` in a root that has only a
#     compiler, CMake and make: `ldd` of every program and library in it
#     finds each library inside the bundle or in glibc and the GCC runtime;
#     an application (tests/outoftree/ledger) builds against it with
#     find_package(gsrt) and ends with its sequential build's files.
#  2. The .deb, installed with `apt install ./gsrt_*.deb` in a copy of that
#     root (plus openssh-server for a host): the same application builds
#     and matches its sequential build locally and on an sshd host started
#     by the installed `gsrt testbed`.
#
#   scripts/package_test.sh [BUILD_DIR]   (default build; packages made by
#                                          scripts/package.sh into it)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
[ "$(id -u)" -eq 0 ] || { echo "package_test: needs root (debootstrap, chroot)"; exit 1; }
bash scripts/package.sh "$build" "$build/packages"
deb=$(ls "$build"/packages/gsrt_*.deb)
bundle=$(ls "$build"/packages/gsrt-*-linux-*.tar.gz)

dpkg-query -W -f='${Status}' debootstrap 2>/dev/null | grep -q "install ok installed" ||
  { apt-get update -qq; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; }
mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n 1)
[ -n "$mirror" ] || mirror=$(sed -n 's/^deb \(http[^ ]*\) bookworm .*/\1/p' /etc/apt/sources.list | head -n 1)
[ -n "$mirror" ] || mirror=http://deb.debian.org/debian

work=$(mktemp -d /var/tmp/gsrt-package-test.XXXXXX)
roots=()
cleanup() {
  local root m
  for root in "${roots[@]}"; do
    # The testbed's sshd runs inside: stop it before the mounts go.
    [ -x "$root/usr/bin/gsrt" ] && chroot "$root" gsrt testbed stop --dir /tmp/testbed >/dev/null 2>&1 || true
    for m in dev/pts dev sys proc; do
      mountpoint -q "$root/$m" && umount -l "$root/$m"
    done
  done
  for root in "${roots[@]}"; do
    for m in dev/pts dev sys proc; do
      mountpoint -q "$root/$m" && { echo "package_test: $root/$m still mounted; not removing $work"; return; }
    done
  done
  rm -rf "$work"
}
trap cleanup EXIT
mount_into() {  # mount_into ROOT: what a program in it needs of the kernel
  local m
  roots+=("$1")
  for m in proc sys dev dev/pts; do mount --bind "/$m" "$1/$m"; done
}
in_root() {  # in_root ROOT COMMAND: a login shell in ROOT as root
  chroot "$1" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 bash -c "$2"
}

start=$SECONDS
echo "package_test: a bare Debian 12 root from $mirror"
debootstrap --variant=minbase bookworm "$work/base" "$mirror" > "$work/debootstrap.log" 2>&1 ||
  { tail -20 "$work/debootstrap.log"; exit 1; }
cp /etc/resolv.conf "$work/base/etc/resolv.conf"
in_root "$work/base" "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends g++ cmake make" > "$work/apt.log" 2>&1 ||
  { tail -20 "$work/apt.log"; echo "FAIL: could not install g++, cmake and make in the bare root"; exit 1; }
echo "package_test: the root with g++, cmake and make took $((SECONDS - start)) s"
# The deb's root is a copy, made before anything is mounted in the first.
cp -a "$work/base" "$work/deb"

# Both tests run the same application, copied in.
for root in "$work/base" "$work/deb"; do
  mkdir -p "$root/tmp/t"
  cp -r tests/outoftree/ledger tests/compare_with_sequential.sh "$root/tmp/t/"
  cp "$bundle" "$root/tmp/t/"
  cp "$deb" "$root/tmp/t/"
  chmod -R a+rX "$root/tmp/t"
done

# --- 1. the bundle, as `nobody` ---
mount_into "$work/base"
mkdir -p "$work/base/tmp/t/home"
chown nobody:nogroup "$work/base/tmp/t/home"
cat > "$work/base/tmp/t/bundle.sh" <<'EOF'
set -euo pipefail
cd "$HOME"
mkdir -p opt
tar xf /tmp/t/gsrt-*-linux-*.tar.gz -C opt
mv opt/gsrt opt/gsrt-moved  # it still runs once moved
prefix=$HOME/opt/gsrt-moved
base_system='^(linux-vdso|ld-linux[^ ]*|libc|libm|libdl|libpthread|librt|libresolv|libutil|libstdc\+\+|libgcc_s)\.so'
checked=0
for elf in "$prefix"/bin/* "$prefix"/lib/*.so*; do
  head -c 4 "$elf" | grep -q ELF || continue
  while read -r name arrow path _; do
    [ "$arrow" = "=>" ] || continue
    [ "$path" != "not" ] || { echo "FAIL: $elf: $name not found"; exit 1; }
    [[ $path == "$prefix"/* || $name =~ $base_system ]] ||
      { echo "FAIL: $elf loads $path, outside the bundle and the base system"; exit 1; }
  done < <(ldd "$elf")
  checked=$((checked + 1))
done
echo "OK: ldd of $checked programs and libraries of the bundle finds each library in it or the base system"
"$prefix/bin/gsrt" --version --verbose
cmake -S /tmp/t/ledger -B ledger-build -DCMAKE_PREFIX_PATH="$prefix" > configure.log ||
  { cat configure.log; exit 1; }
cmake --build ledger-build -j 2 > build.log || { cat build.log; exit 1; }
bash /tmp/t/compare_with_sequential.sh "$HOME/ledger-build/ledger" "$HOME/ledger-build/ledger-sequential"
echo "OK: the bundle: the ledger built by nobody against it ends with the sequential files"
EOF
chroot --userspec=nobody:nogroup "$work/base" env -i PATH=/usr/bin:/bin HOME=/tmp/t/home LANG=C.UTF-8 \
  bash /tmp/t/bundle.sh

# --- 2. the .deb, and an sshd host ---
mount_into "$work/deb"
in_root "$work/deb" "cd /tmp/t && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ./gsrt_*.deb openssh-server openssh-client procps >/tmp/t/apt.log 2>&1" ||
  { tail -20 "$work/deb/tmp/t/apt.log"; echo "FAIL: apt install ./gsrt_*.deb"; exit 1; }
cat > "$work/deb/tmp/t/deb.sh" <<'EOF'
set -euo pipefail
cd /tmp/t
for f in /usr/bin/gsrt /usr/bin/gsstubgen /usr/bin/gsdeploy /usr/bin/gsrt-agent /usr/include/gs/gs.h \
         /usr/share/man/man1/gsrt.1 /usr/share/doc/gsrt/install.md; do
  [ -e "$f" ] || { echo "FAIL: the package did not install $f"; exit 1; }
done
compgen -G '/usr/lib*/cmake/gsrt/gsrtConfig.cmake' >/dev/null ||
  compgen -G '/usr/lib/*/cmake/gsrt/gsrtConfig.cmake' >/dev/null ||
  { echo "FAIL: no CMake package (gsrtConfig.cmake) installed"; exit 1; }
gsrt --version
cmake -S ledger -B ledger-build > configure.log || { cat configure.log; exit 1; }
cmake --build ledger-build -j 2 > build.log || { cat build.log; exit 1; }
bash compare_with_sequential.sh /tmp/t/ledger-build/ledger /tmp/t/ledger-build/ledger-sequential
gsrt testbed start --ssh 1 --dir /tmp/testbed
GSRT_CONFIG=/tmp/testbed/gsrt.yaml bash compare_with_sequential.sh /tmp/t/ledger-build/ledger /tmp/t/ledger-build/ledger-sequential
# (Its hosts are the sshd ones only: every job ran there, by the agent the
# master found beside the installed libgsrt and installed on the host.)
ls /tmp/testbed/ssh/host*/work/bin/gsrt-agent >/dev/null ||
  { echo "FAIL: no gsrt-agent was installed on the sshd host"; exit 1; }
gsrt testbed stop --dir /tmp/testbed
echo "OK: the .deb: the ledger built against it ends with the sequential files locally and on an sshd host"
EOF
in_root "$work/deb" "bash /tmp/t/deb.sh"
echo "OK: the packages on bare Debian 12 roots ($((SECONDS - start)) s)"
