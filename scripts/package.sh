#!/usr/bin/env bash
# Makes gsrt's two packages from a build directory (docs/install.md):
#   OUT/gsrt_VERSION_ARCH.deb           `apt install ./gsrt_*.deb` on Debian 12
#   OUT/gsrt-VERSION-linux-ARCH.tar.gz  a relocatable bundle: unpack anywhere
#                                        (tar xf ... -C ~/opt), no root
# The bundle is the install tree (programs and libgsrt find each other by
# $ORIGIN-relative RUNPATHs) plus every shared library its programs load
# that a cluster may lack (libssh, yaml-cpp, SQLite, OpenSSL's libcrypto,
# GLPK and what they load), each with RUNPATH $ORIGIN; not glibc or the
# GCC runtime (libstdc++, libgcc_s), which `gsrt --version --verbose`
# says which versions of are needed.
#
#   scripts/package.sh [BUILD_DIR [OUT_DIR]]   (defaults: build, build/packages)
# BUILD_DIR is configured and built if it is not yet. Installs dpkg-dev
# (dpkg-shlibdeps) and patchelf when missing (as root, or with sudo).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
out=${2:-$build/packages}

missing=()
for p in dpkg-dev patchelf file; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  echo "package: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_UNITY_BUILD="${GSRT_UNITY_BUILD:-OFF}"
fi
cmake --build "$build" -j "$(nproc)"
mkdir -p "$out"
out=$(cd "$out" && pwd)
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
arch=$(dpkg --print-architecture)

# --- the Debian package (cmake/gsrtPackaging.cmake) ---
rm -f "$out"/gsrt_*.deb
(cd "$build" && cpack -G DEB -B "$out/cpack" > "$out/cpack.log") ||
  { echo "package: cpack failed:"; tail -20 "$out/cpack.log"; exit 1; }
mv "$out"/cpack/gsrt_*.deb "$out/"
rm -rf "$out/cpack"
deb=$(ls "$out"/gsrt_*.deb)
echo "package: $deb ($(du -h "$deb" | cut -f1)), depends on: $(dpkg-deb -f "$deb" Depends)"

# --- the relocatable bundle ---
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root=$stage/gsrt
cmake --install "$build" --prefix "$root" --strip > "$stage/install.log"
libdir=$root/lib
[ -d "$libdir" ] || { echo "package: no lib/ in the install tree"; exit 1; }
# What every machine with a C++ runtime has: never carried.
base_system='^(linux-vdso|ld-linux[^ ]*|libc|libm|libdl|libpthread|librt|libresolv|libutil|libstdc\+\+|libgcc_s)\.so'
carried=()
while read -r elf; do
  while read -r name path; do
    [[ $name =~ $base_system ]] && continue
    [[ $path == "$root"/* ]] && continue
    [ -f "$libdir/$name" ] && continue
    [ -n "$path" ] && [ -f "$path" ] ||
      { echo "package: $elf needs $name, not found on this machine"; exit 1; }
    cp -L "$path" "$libdir/$name"
    chmod 0644 "$libdir/$name"
    patchelf --set-rpath '$ORIGIN' "$libdir/$name"
    carried+=("$name")
  done < <(ldd "$elf" | sed -n 's/^[[:space:]]*\([^ ]*\) => \([^ ]*\) .*/\1 \2/p')
done < <(find "$root/bin" "$libdir" -type f -exec file {} + |
           sed -n 's/^\([^:]*\): *ELF .*dynamic.*/\1/p')
printf '%s\n' "${carried[@]}" | sort > "$root/share/gsrt/carried-libraries.txt"
tarball=$out/gsrt-$version-linux-$arch.tar.gz
tar czf "$tarball" -C "$stage" gsrt
echo "package: $tarball ($(du -h "$tarball" | cut -f1)), carrying ${#carried[@]} libraries: ${carried[*]}"
