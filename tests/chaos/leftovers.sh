# Sourced by chaos_soak.sh: what a finished round may leave behind.
# Each check prints one line per leftover and nothing when all is clean.
# Uses: $testbed, $hosts_dir, $root.

# Processes of the soak: ours, with a working directory under $root or
# $root on their command line (masters, workers, agents), or a persistent
# worker of one of its masters ($master_pids), but not the sshd listeners
# (they serve every round) nor this shell.
soak_processes() {
  local listeners=" " f p cwd cmd owner
  for f in "$hosts_dir"/host*/sshd.pid; do
    [ -f "$f" ] && listeners+="$(cat "$f") "
  done
  for p in $(pgrep -u "$(id -u)" || true); do
    [ "$p" = $$ ] || [ "$p" = "$BASHPID" ] && continue
    case "$listeners" in *" $p "*) continue ;; esac
    cwd=$(readlink "/proc/$p/cwd" 2>/dev/null) || continue
    cmd=$(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null) || continue
    # (A persistent worker runs in /, with its master's pid after serve.)
    owner=
    [[ $cmd == "$bin/"*-worker\ serve\ * ]] && owner=${cmd##* serve } owner=${owner%% *}
    if [[ $cwd == "$root" || $cwd == "$root"/* || $cmd == *"$root"* ||
      (-n $owner && " $master_pids " == *" $owner "*) ]]; then
      echo "process $p: $(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | cut -c1-120)"
    fi
  done
}

# Sessions still open on the test hosts (sshd children and what they run).
host_sessions() {
  local i p
  for i in 1 2 3; do
    for p in $(bash "$testbed" below "$hosts_dir" "$i"); do
      echo "node$i session process $p: $(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | cut -c1-80)"
    done
  done
}

# The soak's batch jobs still in the local Slurm's queue (only with
# --slurm): "batch job ID NAME STATE" per job.
batch_jobs() {
  [ -n "${slurm_dir:-}" ] || return 0
  squeue -h -r -o '%i %j %T' 2>/dev/null |
    awk '$2 ~ /^gsrt-(pilot-)?cluster-/ { print "batch job", $1, $2, $3 }'
}

# Files no finished run keeps (docs/design.md: "Files and versions",
# "Resume", "Failures"), in round directory $1 (par/ is the master's
# directory, node1..3 the hosts' work dirs); $2 is 1 when a host was lost or
# the master killed in the round.
# - par/ holds the program's files and .gsrt only (the comparison with the
#   sequential run checks the files);
# - .gsrt holds the history, the lock, last_job, code-facts, logs/ and the evidence of
#   failed attempts (failed/): no data/ (GS_Off removes the versions), no
#   jobs/ sandbox, no unsaved/ final version;
# - a host's work dir holds its installed bin/, logs/, failed/, its owner
#   file (the master work dir it belongs to) and an empty jobs/ and data/:
#   GS_Off removes the copies; what a host killed or stopped with jobs
#   running kept (their sandboxes, the copies the run dropped, a partial
#   temporary) is swept when the host is back, in the run or at GS_Off,
#   and what a killed master left by the run started again (design.md,
#   Failures);
# - no temporary (*.gsrt-part-*, *.gsrt-upload-*, last_job.new) anywhere,
#   nothing in the soak's TMPDIR (gsrt-run-* scratch directories).
stray_files() {
  local rdir=$1 disturbed=$2 e node f
  for e in "$rdir"/par/.gsrt/*; do
    case "${e##*/}" in
      history.db | lock | last_job | failed | logs | code-facts) ;;
      *) echo "unexpected ${e#"$root"/}" ;;
    esac
  done
  for node in "$rdir"/node*; do
    for e in "$node"/*; do
      [ -e "$e" ] || continue
      case "${e##*/}" in
        bin | failed | logs | owner) ;;
        jobs | data)
          [ -z "$(ls -A "$e")" ] ||
            echo "left in ${e#"$root"/}: $(ls -A "$e" | head -5 | tr '\n' ' ')" ;;
        *) echo "unexpected ${e#"$root"/}" ;;
      esac
    done
  done
  # The Slurm host (--slurm): its logs/, failed/ (the output of a job or
  # pilot cancelled outside gsrt is kept in failed/batch/) and an empty
  # jobs/ and pilots/ (a killed master's pilots, token and scripts, are
  # the restarted master's to remove). No batch directory: the run's go at
  # its end, and a killed master's with the run started again, unless it
  # voided an element there (its claim must outlive the queued job).
  for e in "$rdir"/cluster/*; do
    [ -e "$e" ] || continue
    case "${e##*/}" in
      logs | failed) ;;
      jobs | pilots)
        [ -z "$(ls -A "$e")" ] || echo "left in ${e#"$root"/}: $(ls -A "$e" | head -5 | tr '\n' ' ')" ;;
      batch-*)
        if ((disturbed)) && grep -qsx void "$e"/*/claim.* "$e"/claim.*; then
          :
        else
          echo "batch directory left: ${e#"$root"/}: $(ls -A "$e" | head -5 | tr '\n' ' ')"
        fi ;;
      *) echo "unexpected ${e#"$root"/}" ;;
    esac
  done
  find "$rdir" \( -name '*.gsrt-part-*' -o -name '*.gsrt-upload-*' -o -name 'last_job.new' \) \
    -printf "temporary %P\n" 2>/dev/null
  find "$root/tmp" -mindepth 1 -maxdepth 1 -printf 'in TMPDIR: %f\n' 2>/dev/null
}
