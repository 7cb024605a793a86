#!/usr/bin/env bash
# Installs every Debian 12 package gsrt needs to build, test and benchmark:
# compiler, CMake, libraries, and the real servers the tests start (sshd,
# Slurm with munge, headless Chromium for the dashboard test). Safe to run again; installs only what is missing.
set -euo pipefail

packages=(
  g++ cmake ninja-build pkg-config git ca-certificates procps iproute2 bc
  libssh-dev libyaml-cpp-dev libsqlite3-dev sqlite3
  libboost1.81-dev libssl-dev
  googletest libgtest-dev libgmock-dev libbenchmark-dev
  clang libclang-rt-14-dev
  libcli11-dev nlohmann-json3-dev libglpk-dev
  help2man universal-ctags python3 binutils
  openssh-server openssh-client
  chromium
  munge slurm-wlm slurm-wlm-torque
  lmod bubblewrap
  openmpi-bin libopenmpi-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages are installed"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: run as root or install sudo" >&2; exit 1; }
  sudo=sudo
fi
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
# Debian's slurm packages start daemons on install where systemd runs; the
# tests start their own, so keep package scripts from starting services.
DEBIAN_FRONTEND=noninteractive RUNLEVEL=1 $sudo apt-get install -y -qq \
  --no-install-recommends "${missing[@]}"
