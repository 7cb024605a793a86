#!/usr/bin/env bash
# gsrt-agent is copied to hosts that have nothing of the master's machine
# (docs/ssh.md, "What a host needs"): it may need only the C and C++
# runtimes that the worker needs too, and may name no library directory
# (RPATH, RUNPATH) of the machine it was built on. Read from the file
# itself: ldd would find a missing library through the master's paths.
#
#   agent_self_contained_test.sh AGENT
#   agent_self_contained_test.sh --installed BUILD_DIR
#                      the agent that `cmake --install BUILD_DIR` installs
set -euo pipefail
fail() { echo "FAIL: $*"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ "$1" = --installed ]; then
  cmake --install "$2" --prefix "$work/prefix" > "$work/install.log" ||
    { cat "$work/install.log"; fail "cmake --install $2"; }
  agent=$work/prefix/bin/gsrt-agent
  what="the installed gsrt-agent"
else
  agent=$1
  what=$agent
fi
[ -x "$agent" ] || fail "$agent is not an executable file"
dynamic=$(readelf -d "$agent") || fail "readelf -d $agent"

# glibc (libc, libm, the dynamic loader; libpthread, libdl and librt are
# what sanitizer runtimes ask for, stubs in glibc 2.34 and later),
# libstdc++ and libgcc_s.
allowed='^(libc\.so\.6|libm\.so\.6|ld-linux[-a-z0-9_.]*\.so\.[0-9]+|libpthread\.so\.0|libdl\.so\.2|librt\.so\.1|libstdc\+\+\.so\.6|libgcc_s\.so\.1)$'
needed=$(sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p' <<< "$dynamic")
[ -n "$needed" ] || fail "$what needs no library at all: not a dynamic program?"
for lib in $needed; do
  [[ $lib =~ $allowed ]] ||
    fail "$what needs $lib, which a host need not have (needs: $(echo $needed))"
done
paths=$(sed -n 's/.*(R\(UN\)\{0,1\}PATH).*\[\(.*\)\]$/\2/p' <<< "$dynamic")
[ -z "$paths" ] || fail "$what looks for libraries in $paths, a path of the machine it was built on"

# It starts with no environment at all, as a fresh login on a host would
# give it nothing of the master's.
version=$(env -i "$agent" --version) || fail "$what --version failed"
echo "OK: $what needs only $(echo $needed) ($version)"
