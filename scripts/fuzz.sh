#!/usr/bin/env bash
# Runs each libFuzzer program for SECONDS over its seed corpus
# (fuzz/corpus/NAME/) and prints one line per fuzzer: executions, speed,
# coverage, and whether it found a crash, leak or hang (exit 1 if any did).
#
#   scripts/fuzz.sh [-b BUILD_DIR] SECONDS [NAME...]
#
# BUILD_DIR (default build-asan) must be configured with
# -DGSRT_BUILD_FUZZERS=ON (docs/reliability.md); the fuzzers are built
# first. New inputs go to BUILD_DIR/fuzz-corpus/NAME/ (the seeds in the
# repository are only read); a crashing input to
# BUILD_DIR/fuzz-artifacts/NAME-crash-*, with the command to replay it.
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-asan
if [ "${1:-}" = "-b" ]; then build=$2; shift 2; fi
seconds=${1:?usage: scripts/fuzz.sh [-b BUILD_DIR] SECONDS [NAME...]}
shift
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  names=(idl_fuzzer config_fuzzer agent_protocol_fuzzer pilot_greeting_fuzzer
         worker_args_fuzzer result_file_fuzzer)
fi
[ -f "$build/CMakeCache.txt" ] || {
  echo "fuzz.sh: $build is not configured; see docs/reliability.md" >&2
  exit 2
}
cmake --build "$build" -j "$(nproc)" --target "${names[@]}"

failed=0
for name in "${names[@]}"; do
  work=$build/fuzz-corpus/$name
  artifacts=$build/fuzz-artifacts
  mkdir -p "$work" "$artifacts"
  log=$build/fuzz-$name.log
  # -timeout: one input running this long is a hang (GSRT_FUZZ_TIMEOUT,
  # default 10 s; raise it on a loaded machine, where a slow input is not
  # a hang); -rss_limit_mb: a blow-up is a crash. Leaks: LeakSanitizer.
  set +e
  "$build/fuzz/$name" -max_total_time="$seconds" -timeout="${GSRT_FUZZ_TIMEOUT:-10}" \
    -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$artifacts/$name-" "$work" "fuzz/corpus/$name" \
    >"$log" 2>&1
  rc=$?
  set -e
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  if [ $rc -eq 0 ]; then
    verdict=ok
  else
    verdict="FAILED (exit $rc): see $log"
    failed=1
    grep -m3 -E 'ERROR|SUMMARY|Test unit written' "$log" | sed 's/^/    /' || true
  fi
  printf '%-24s %12s execs %8s/s  cov %6s  %s\n' "$name" "${execs:-?}" \
    "${speed:-?}" "${cov:-?}" "$verdict"
done
exit $failed
