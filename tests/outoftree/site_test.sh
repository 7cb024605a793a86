#!/usr/bin/env bash
# Issue 29's acceptance: an application built outside the tree against an
# installed gsrt runs a GPU operation (two devices a job) on two hosts that
# declare two stand-in devices each (this machine, and an sshd host of
# `gsrt testbed`), a CPU operation beside it, in the environment a real
# Lmod module makes (host_defaults: MODULEPATH and `module load site/1.0`),
# and its files and output equal the sequential build's run under the same
# module. The functions' log shows each GPU job held both devices of its
# host, no device held twice at once, jobs on both hosts, and CPU jobs
# running beside GPU ones.
#
#   site_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 src=$2
work=$(mktemp -d)
cleanup() {
  [ ! -f "$work/testbed/gsrt.yaml" ] ||
    "$work/prefix/bin/gsrt" testbed stop --dir "$work/testbed" > /dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: site: $*"; exit 1; }

timeout 30 sh -lc 'type module' > /dev/null 2>&1 ||
  fail "no 'module' command in a login shell: install lmod (scripts/install-deps.sh)"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
cmake -S "$src/tests/outoftree/site" -B "$work/app" -G Ninja \
  -DCMAKE_PREFIX_PATH="$work/prefix" > "$work/configure.log" ||
  { cat "$work/configure.log"; fail "configure"; }
cmake --build "$work/app" > "$work/build.log" || { cat "$work/build.log"; fail "build"; }

# The module: SITE_SCALE, which render needs.
mkdir -p "$work/modules/site"
printf 'setenv("SITE_SCALE", "7")\n' > "$work/modules/site/1.0.lua"

"$work/prefix/bin/gsrt" testbed start --ssh 1 --dir "$work/testbed" > "$work/testbed.log" 2>&1 ||
  { cat "$work/testbed.log"; fail "gsrt testbed start"; }
{
  printf 'host_defaults:\n'
  printf '  env: {MODULEPATH: "%s", SITE_LOG: "%s"}\n' "$work/modules" "$work/site.log"
  printf '  setup: ["module load site/1.0"]\n'
  printf 'hosts:\n  - name: here\n    adapter: local\n    slots: 2\n    gpus: [0, 1]\n'
  grep -v -e '^#' -e '^hosts:' "$work/testbed/gsrt.yaml" | sed '/name: node1/a\    gpus: [0, 1]'
} > "$work/gsrt.yaml"

images=8
mkdir "$work/parallel" "$work/sequential"
(cd "$work/parallel" &&
  env -u SITE_SCALE -u CUDA_VISIBLE_DEVICES GSRT_CONFIG="$work/gsrt.yaml" \
    timeout -k 10 300 "$work/app/site" "$images") > "$work/parallel.out" 2> "$work/parallel.err" ||
  { cat "$work/parallel.err"; fail "the run failed"; }
(cd "$work/sequential" &&
  env -u SITE_LOG MODULEPATH="$work/modules" \
    timeout 60 sh -lc 'module load site/1.0 && exec "$0" "$@"' "$work/app/site-sequential" "$images") \
  > "$work/sequential.out" 2>&1 || { cat "$work/sequential.out"; fail "the sequential build failed"; }
diff -r --exclude=.gsrt "$work/parallel" "$work/sequential" || fail "files differ from the sequential run"
diff "$work/parallel.out" "$work/sequential.out" || fail "output differs from the sequential run"

# The log, each line with its host in front (node1's jobs ran under the
# testbed's directory). Fields: host kind index start end cuda gsrt cwd.
awk -v tb="$work/testbed/" '{ print (index($7, tb) == 1 ? "node1" : "here"), $0 }' \
  "$work/site.log" > "$work/lines"
[ "$(grep -c ' render ' "$work/lines")" = "$images" ] || fail "expected $images renders: $(cat "$work/lines")"
awk '$2 == "render" && !($6 == "0,1" && $7 == "0,1") { exit 1 }' "$work/lines" ||
  fail "a GPU job did not hold both devices of its host: $(cat "$work/lines")"
awk '$2 == "summarize" && ($6 != "-" || $7 != "-") { exit 1 }' "$work/lines" ||
  fail "a CPU job was given devices: $(cat "$work/lines")"
for h in here node1; do
  grep -q "^$h render " "$work/lines" || fail "no GPU job ran on $h: $(cat "$work/lines")"
  # Both devices of a host go to one job: its renders never overlap.
  awk -v h="$h" '$1 == h && $2 == "render" { print $4, $5 }' "$work/lines" | sort -n |
    awk 'NR > 1 && $1 < end { exit 1 } { end = $2 }' ||
    fail "two GPU jobs held $h's devices at once: $(cat "$work/lines")"
done
awk '$2 == "render" { s[n] = $4; e[n] = $5; n++ }
     $2 == "summarize" { c[m] = $4; d[m] = $5; m++ }
     END { for (i = 0; i < m; ++i) for (j = 0; j < n; ++j)
             if (c[i] < e[j] && s[j] < d[i]) exit 0
           exit 1 }' "$work/lines" || fail "no CPU job ran beside a GPU job"
echo "OK: site: $images GPU jobs on two hosts of two devices each, under a module, as the sequential build"
