#!/usr/bin/env bash
# Builds the runtime with sanitizers (clang) and runs the tests of the
# parts that take outside input or run threads (docs/reliability.md):
#
#   scripts/sanitize.sh asan   ASan+UBSan in build-asan/: parsers (the IDL,
#                              the worker's ELF file), config,
#                              base, worker, history, engine, local adapter,
#                              agent (protocol, serve, pipes), pilots
#   scripts/sanitize.sh tsan   TSan in build-tsan/: the threaded ones
#                              (engine, agent, local adapter, pilots,
#                              transport)
#
# Only the listed test programs are built (the plain build in CI already
# builds and runs everything), so the stage fits CI's budget. Tests that
# start sshd or Slurm are not run here. GSRT_SANITIZE_TESTS narrows the
# list. Suppressions live in
# tests/sanitizers/*.supp, each with its reason.
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:?usage: scripts/sanitize.sh asan|tsan}
jobs=$(nproc)

asan_tests=(
  idl_lexer_test idl_parser_test idl_model_test emitters_test output_files_test
  idl_binary_test run_binary_test
  config_test config_validate_test config_yaml_test
  file_io_test file_system_test hashing_test process_spawn_test units_test
  worker_args_test worker_main_test
  history_test history_journal_test history_reuse_test journal_test
  function_identity_test code_facts_test
  engine_test engine_files_test engine_faults_test engine_resume_test
  outcome_plan_test
  job_files_test local_adapter_test sandbox_pool_test worker_command_test
  protocol_test staging_files_test work_dir_sweep_test chunk_pump_test
  agent_test agent_pipe_test
  agent_serve_test agent_adapter_test
  pilot_auth_test pilot_agent_test pilot_listener_test pilot_scaling_test
  signal_grace_test
  shell_quote_test known_hosts_test pipe_stream_test
)
tsan_tests=(
  engine_test engine_faults_test engine_files_test engine_start_test
  local_adapter_test sandbox_pool_test
  agent_test agent_pipe_test agent_serve_test agent_adapter_test chunk_pump_test
  pilot_agent_test pilot_listener_test pipe_stream_test asio_clock_test
)

case $kind in
  asan)
    build=build-asan sanitize=address,undefined tests=("${asan_tests[@]}")
    extra=(-DGSRT_BUILD_FUZZERS=ON)
    export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1
    export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:suppressions=$PWD/tests/sanitizers/ubsan.supp
    export LSAN_OPTIONS=suppressions=$PWD/tests/sanitizers/lsan.supp
    ;;
  tsan)
    build=build-tsan sanitize=thread tests=("${tsan_tests[@]}")
    extra=()
    export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:suppressions=$PWD/tests/sanitizers/tsan.supp
    ;;
  *) echo "sanitize.sh: unknown kind '$kind' (asan or tsan)" >&2; exit 2 ;;
esac

# GSRT_SANITIZE_TESTS="a_test b_test" runs just those (locally).
if [ -n "${GSRT_SANITIZE_TESTS:-}" ]; then
  read -r -a tests <<< "$GSRT_SANITIZE_TESTS"
fi

launcher=()
command -v ccache >/dev/null &&
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# -O1: fast enough to run the tests, close enough to the source for
# reports. Debug keeps the asserts on; line tables are all a report's
# stack needs. A unity build (several sources per compiler run) halves the
# build's time, which is most of the stage's (docs/reliability.md).
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_C_FLAGS=-O1 -DCMAKE_CXX_FLAGS=-O1 \
  -DCMAKE_C_FLAGS_DEBUG=-gline-tables-only -DCMAKE_CXX_FLAGS_DEBUG=-gline-tables-only \
  -DCMAKE_UNITY_BUILD=ON -DGSRT_SANITIZE=$sanitize \
  -DGSRT_BUILD_BENCH=OFF "${extra[@]}" "${launcher[@]}" >/dev/null
# The worker programs the tests spawn come with their test targets.
cmake --build "$build" -j "$jobs" --target "${tests[@]}"
# Only the programs built above have discovered cases (label "unit");
# the others show up as *_NOT_BUILT placeholders, left out.
ctest --test-dir "$build" -j "$jobs" --timeout 600 --output-on-failure \
  -L '^unit$' -E '_NOT_BUILT'
