#!/usr/bin/env bash
# What a user reads when a task fails (issue 13), in each worker mode
# (process, persistent, fork): the exception's what() in the failure message and the
# summary; files named as the program named them, never by their data path;
# the failed call with its arguments.
# With `config`: an operation name in gsrt.yaml that the IDL does not
# declare is refused at GS_On with the file, the line and the closest name.
# With `job-mode`: a Slurm host in job mode without `shared_fs: true` (job
# mode copies no files) is refused at GS_On naming the file, the host and
# the key, before any batch command runs (issue 36).
#   failure_messages_test.sh FAULTS_MASTER process|persistent|fork|config|job-mode
set -euo pipefail
master=$1
mode=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
# An operation name in gsrt.yaml that no IDL declares is refused at GS_On.
if [ "$mode" = config ]; then
  printf 'runtime:\n  timeout: {stpe: 5, seed: 1}\n' > gsrt.yaml
  status=0
  GSRT_CONFIG="$work/gsrt.yaml" timeout 60 "$master" 1 1 0 > out.txt 2> err.txt || status=$?
  [ "$status" = 1 ] || { echo "FAIL (config): exited $status"; cat err.txt; exit 1; }
  grep -q "^gsrt: cannot start: $work/gsrt.yaml:2:13: key 'runtime.timeout.stpe': the program has no operation 'stpe' (its IDL declares: seed, step, lines); did you mean 'step'?" err.txt ||
    { echo "FAIL (config): the typo is not refused as expected"; cat err.txt; exit 1; }
  [ ! -e col0-0.txt ] || { echo "FAIL (config): tasks ran"; exit 1; }
  echo "OK: failure messages (config)"
  exit 0
fi
if [ "$mode" = job-mode ]; then
  printf 'hosts:\n  - name: cluster\n    adapter: slurm\n    mode: job\n' > gsrt.yaml
  status=0
  GSRT_CONFIG="$work/gsrt.yaml" timeout 60 "$master" 1 1 0 > out.txt 2> err.txt || status=$?
  [ "$status" = 1 ] || { echo "FAIL (job-mode): exited $status"; cat err.txt; exit 1; }
  grep -qF "$work/gsrt.yaml:2:5: host 'cluster': \`mode: job\` runs every job on the nodes straight from the master's files and copies nothing, so it needs \`shared_fs: true\` (now false)" err.txt ||
    { echo "FAIL (job-mode): the host is not refused as expected"; cat err.txt; exit 1; }
  grep -q "^gsrt: cannot start: " err.txt ||
    { echo "FAIL (job-mode): GS_On did not fail"; cat err.txt; exit 1; }
  [ ! -e col0-0.txt ] || { echo "FAIL (job-mode): tasks ran"; exit 1; }
  echo "OK: failure messages (job-mode)"
  exit 0
fi
mkdir switches
touch switches/throw-1-0 switches/noout-1-1
cat > gsrt.yaml <<YAML
runtime:
  retries: {app: 0}
  workers: $mode
hosts:
  - name: local
    adapter: local
    slots: 2
YAML
export GSRT_CONFIG="$work/gsrt.yaml"
status=0
timeout 120 "$master" 2 2 0 "$work/switches" > out.txt 2> err.txt || status=$?
fail() { echo "FAIL ($mode): $1"; echo "--- stderr:"; cat err.txt; exit 1; }
[ "$status" != 0 ] || fail "a run with a failed task exited 0"
[ "$status" != 124 ] || fail "the master did not finish in 120 s"
# The summary's line for the failed task carries the exception's message.
grep -q '^gsrt: task [0-9]* (step) failed after 1 attempt: step threw: level 1 index 0 told to throw' err.txt ||
  fail "the summary does not show the exception's message"
grep -q "^gsrt: task [0-9]* (step) failed after 1 attempt: declared output 'col1-1.txt' (parameter 1) was not written" err.txt ||
  fail "the summary does not name the missing output as the program did"
# The failed task's call follows its line: files by name, scalars as values.
grep -q '^gsrt:   called as step(col0-0.txt, col0-1.txt, 1, 0, 0, "/.*")$' <<< "$(grep -A1 'step threw' err.txt)" ||
  fail "the summary does not show the failed call's arguments"
grep -q '^gsrt: col1-2.txt was not updated' err.txt ||
  fail "the file left as it was is not named as the program did"
! grep -q '\.gsrt/data' err.txt || fail "a message names a data path"
! grep -q 'exit code 1' err.txt || fail "the failure is still shown as an exit code"
echo "OK: failure messages ($mode)"
